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
    assert len(code) == 4 and code[3] in "ABCDE" and decode_code(code).golem is None


def test_new_golem_prints_a_five_letter_code(capsys: pytest.CaptureFixture[str]) -> None:
    status, reply = run(capsys, "new", "--golem")
    assert status == 0 and decode_code(str(reply["code"])).golem is not None


@pytest.mark.parametrize(
    "args, reply",
    [
        (["ask", "DEMO", "mix", "mushroom", "toad"], {"potion": "R+"}),
        (["ask", "demo", "SELL", "r-", "Mushroom", "toad"], {"quality": "wrong"}),
        (["ask", "AAAA", "debunk", "fern", "B"], {"sign": "-"}),
        (["ask", "AAAA", "debunk", "fern", "feather", "B-"], {"makes": True}),
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
    status, library = run(capsys, "ask", code, "library", "fern")
    assert status == 0 and library["class"] in ("sun", "moon")


@pytest.mark.parametrize(
    "args, kind, fragment",
    [
        (["ask", "DEMO", "mix", "fern", "fern"], "same_ingredient", "fern"),
        (["ask", "DEMO", "golem", "test", "fern"], "no_golem", "DEMO"),
        (["ask", "DEMO", "mix", "fern", "dragon"], "unknown_ingredient", "dragon"),
        (["ask", "DEMO", "debunk", "fern", "purple"], "unknown_colour", "(R, G, B)"),
        (["ask", "DEMO", "sell", "N", "fern", "toad"], "neutral_potion", "N"),
        (["ask", "QBXZ", "mix", "fern", "toad"], "unsupported_code", "QBXZ"),
        (["ask", "QB", "mix", "fern", "toad"], "invalid_code", "QB"),
        (["ask", "DEMO"], "bad_command", "labkit ask"),
        (["new", "--gollem"], "bad_command", "--gollem"),
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
