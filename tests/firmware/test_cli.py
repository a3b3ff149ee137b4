"""The ``labkit`` command: JSON replies for ``new`` and ``ask``, JSON errors with status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import decode_code
from firmware.cli import main

LABKIT = Path(sys.executable).parent / "labkit"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    status = main(list(args))
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1, lines
    return status, json.loads(lines[0])


def test_new_prints_a_readable_code(capsys: pytest.CaptureFixture[str]) -> None:
    status, reply = run(capsys, "new")
    assert status == 0 and set(reply) == {"code"}
    code = str(reply["code"])
    assert len(code) == 4 and code[3] in "FGHIJKLMNOPQRSTUVWXYZ" and decode_code(code).golem is None


def test_new_golem_prints_a_five_letter_code(capsys: pytest.CaptureFixture[str]) -> None:
    status, reply = run(capsys, "new", "--golem")
    code = str(reply["code"])
    assert status == 0 and len(code) == 5 and code[3] in "FGHIJKLMNOPQRSTUVWXYZ"
    assert decode_code(code).golem is not None


@pytest.mark.parametrize(
    "args, reply",
    [
        (["ask", "DEMO", "mix", "mushroom", "toad"], {"potion": "R+"}),
        (["ask", "demo", "SELL", "r-", "Mushroom", "toad"], {"quality": "wrong"}),
        (["ask", "AAAA", "debunk", "fern", "B"], {"sign": "-"}),
        (["ask", "--level", "apprentice", "AAAA", "debunk", "fern", "B"], {"sign": "-"}),
        (["ask", "--level", "master", "AAAA", "debunk", "fern", "feather", "B-"], {"makes": True}),
        (["ask", "--level=master", "--rules=alchemists", "AAAA", "debunk", "fern", "feather", "B+"], {"makes": False}),
        (["ask", "--rules", "alchymisti", "AAAA", "debunk", "fern", "feather"], {"potion": "B-"}),
        (["ask", "--rules", "alchymisti", "--level", "master", "AAAA", "sell", "B-", "fern", "feather"],
         {"quality": "exact"}),
        (["ask", "AAAA", "exhibit", "G+", "fern", "claw"], {"success": True}),
        (["ask", "AAAA", "reveal"], {"ingredients": {"fern": "Ppn", "claw": "nPp", "mushroom": "pnP", "flower": "Nnp",
                                                     "root": "pNn", "scorpion": "npN", "toad": "PPP", "feather": "NNN"},
                                     "golem": None}),
    ],
)
def test_ask_answers_in_json(capsys: pytest.CaptureFixture[str], args: list[str], reply: dict[str, object]) -> None:
    assert run(capsys, *args) == (0, reply)


def test_ask_golem_questions(capsys: pytest.CaptureFixture[str]) -> None:
    _, new = run(capsys, "new", "--golem")
    code = str(new["code"])
    status, reveal = run(capsys, "ask", code, "reveal")
    golem = reveal["golem"]
    assert status == 0 and isinstance(golem, dict)
    first, second = golem["animate"]
    assert run(capsys, "ask", code, "golem", "animate", first, second) == (0, {"animated": True})
    status, test = run(capsys, "ask", code, "golem", "test", "fern")
    assert status == 0 and set(test) == {"chest", "ears"}
    status, offer = run(capsys, "ask", code, "library", "offer")
    assert status == 0 and isinstance(offer["ingredients"], list) and len(offer["ingredients"]) == 4
    # stateless: the library answers for any ingredient, offered or not
    for ingredient in ("fern", "claw", "mushroom", "flower", "root", "scorpion", "toad", "feather"):
        status, library = run(capsys, "ask", code, "library", ingredient)
        assert status == 0 and library["class"] in ("sun", "moon")


def write_config(tmp_path: Path, game: str) -> str:
    path = tmp_path / "labkit.toml"
    path.write_text(f"[game]\n{game}\n")
    return str(path)


@pytest.mark.parametrize("game, args, wanted", [
    ('level = "master"', ["new"], (4, "master")),
    ('golem = true', ["new"], (5, "apprentice")),
    ('golem = true', ["new", "--no-golem"], (4, "apprentice")),
    ('golem = true\nrules = "alchymisti"', ["new"], (4, "apprentice")),
    ('golem = true', ["new", "--rules", "alchymisti", "--level", "master"], (4, "master")),
])
def test_new_takes_the_configured_defaults_under_its_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, args: list[str], wanted: tuple[int, str]
) -> None:
    status, reply = run(capsys, args[0], "--config", write_config(tmp_path, game), *args[1:])
    assert status == 0 and len(str(reply["code"])) == wanted[0]
    level = wanted[1]
    # the level shows in the debunk the game's code answers (only that level's form is allowed)
    question = ["debunk", "fern", "R"] if level == "apprentice" else ["debunk", "fern", "toad", "N"]
    rules = ["--rules", "alchymisti"] if "alchymisti" in game or "alchymisti" in args else []
    if not rules:
        assert run(capsys, "ask", "--level", level, str(reply["code"]), *question)[0] == 0


def test_ask_takes_the_configured_level_and_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    master = write_config(tmp_path, 'level = "master"')
    assert run(capsys, "ask", "--config", master, "AAAA", "debunk", "fern", "feather", "B-") == (0, {"makes": True})
    assert run(capsys, "ask", "--config", master, "AAAA", "debunk", "fern", "B")[1]["error"]["kind"] == "not_at_level"  # type: ignore[index]
    assert run(capsys, "ask", "--config", master, "--level", "apprentice", "AAAA", "debunk", "fern", "B") == (0, {"sign": "-"})
    variant = write_config(tmp_path, 'rules = "alchymisti"')
    assert run(capsys, "ask", "--config", variant, "AAAA", "debunk", "fern", "feather") == (0, {"potion": "B-"})
    _, golem = run(capsys, "new", "--golem")
    code = str(golem["code"])
    # a golem code is a King's Golem game: configured alchymisti rules give way, asked ones are refused
    assert run(capsys, "ask", "--config", variant, code, "golem", "test", "fern")[0] == 0
    refused = run(capsys, "ask", "--config", variant, "--rules", "alchymisti", code, "mix", "fern", "toad")
    assert refused[0] == 2 and refused[1]["error"]["kind"] == "not_in_rules"  # type: ignore[index]


@pytest.mark.parametrize(
    "args, kind, fragment",
    [
        (["ask", "DEMO", "mix", "fern", "fern"], "same_ingredient", "fern"),
        (["ask", "DEMO", "golem", "test", "fern"], "no_golem", "DEMO"),
        (["ask", "DEMO", "mix", "fern", "dragon"], "unknown_ingredient", "dragon"),
        (["ask", "DEMO", "debunk", "fern", "purple"], "unknown_colour", "R, G, B"),
        (["ask", "DEMO", "sell", "N", "fern", "toad"], "neutral_potion", "N"),
        (["ask", "QB1Z", "mix", "fern", "toad"], "invalid_code", "QB1Z"),
        (["ask", "ßAAA", "mix", "fern", "toad"], "invalid_code", "ß"),
        (["ask", "QB", "mix", "fern", "toad"], "invalid_code", "QB"),
        (["ask", "DEMO"], "bad_command", "labkit ask"),
        (["new", "--gollem"], "bad_command", "--gollem"),
        (["new", "--level"], "bad_command", "--level needs a value"),
        (["new", "--level", "expert"], "unknown_level", "expert"),
        (["new", "--rules", "alchemist"], "unknown_rules", "alchemist"),
        (["new", "master"], "bad_command", "'master'"),
        (["ask", "--golem", "DEMO", "mix", "fern", "toad"], "bad_command", "--golem"),
        (["ask", "--config", "/nonexistent/labkit.toml", "DEMO", "mix", "fern", "toad"], "bad_config", "no such file"),
        # the question the options forbid names the option that allows it
        (["ask", "DEMO", "debunk", "fern", "toad"], "not_in_rules", "--rules alchymisti allows it"),
        (["ask", "--level", "master", "DEMO", "debunk", "fern", "R"], "not_at_level", "--level apprentice allows it"),
        (["ask", "DEMO", "debunk", "fern", "toad", "N"], "not_at_level", "--level master allows it"),
        (["ask", "--rules", "alchymisti", "DEMO", "exhibit", "R+", "fern", "toad"], "not_in_rules",
         "--rules alchemists allows it"),
        (["ask", "--rules", "alchymisti", "DEMO", "golem", "test", "fern"], "not_in_rules", "alchymisti rules"),
        (["new", "--golem", "--rules", "alchymisti"], "not_in_rules", "--rules alchemists allows it"),
        # two problems at once: the more basic one first
        (["ask", "DEMO", "golem", "animate", "fern", "fern"], "no_golem", "DEMO"),
        (["ask", "DEMO", "golem", "animate", "fern", "dragon"], "no_golem", "DEMO"),
        (["ask", "DEMO", "sell", "N", "fern", "fern"], "neutral_potion", "N"),
        (["ask", "DEMO", "debunk", "fern", "Q"], "unknown_colour", "Q"),
        (["brew"], "bad_command", "brew"),
        ([], "bad_command", "usage"),
    ],
)
def test_errors_are_json_with_status_2(capsys: pytest.CaptureFixture[str], args: list[str], kind: str, fragment: str) -> None:
    status, reply = run(capsys, *args)
    assert status == 2
    error = reply["error"]
    assert isinstance(error, dict) and error["kind"] == kind and fragment in str(error["message"])


def test_the_installed_console_script() -> None:
    done = subprocess.run([str(LABKIT), "ask", "DEMO", "mix", "mushroom", "toad"], capture_output=True, text=True, check=False)
    assert (done.returncode, json.loads(done.stdout)) == (0, {"potion": "R+"})
    bad = subprocess.run([str(LABKIT), "ask", "DEMO", "mix", "fern"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and json.loads(bad.stdout)["error"]["kind"] == "bad_command"


@pytest.mark.parametrize("word", ["--help", "-h"])
def test_help_prints_the_usage_with_status_0(capsys: pytest.CaptureFixture[str], word: str) -> None:
    assert main([word]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: labkit")
    from engine.commands import QUESTION_FORMS
    for form in QUESTION_FORMS:  # every question the engine reads is listed
        assert f"labkit ask CODE {form}\n" in out
    for command in ("labkit new", "labkit vision identify", "labkit run", "labkit config"):
        assert command in out
