"""Promise 3, bad input gets a clear error and changes nothing: hypothesis fuzzes the serial console
through a real pty into the running kit, the command line, game codes, the configuration file, and
the card reference files and enrolment images. Every case gets an error that names the problem,
and the game in progress is unchanged."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import tempfile
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from drivers.card_reader import ReferenceFileError, load_references, placeholder_references
from drivers.card_reader.references import shipped_faces_dir
from drivers.console import MAX_LINE_BYTES
from firmware.cli import main as labkit_main
from firmware.config import ConfigError, load_config
from firmware.runtime import Kit
from tests.reliability.helpers import Pty, make_kit, running, screen_text, wait_for

FUZZ = settings(max_examples=int(os.environ.get("LABKIT_FUZZ_EXAMPLES", "60")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

WORDS = ("mix", "sell", "debunk", "exhibit", "golem", "test", "animate", "library", "reveal", "confirm",
         "new", "restore", "status", "history", "scan", "help", "fern", "claw", "mushroom", "flower",
         "root", "scorpion", "toad", "feather", "R+", "R-", "G+", "G-", "B+", "B-", "N", "R", "G", "B",
         "DEMO", "AAAA", "ZZZZ", "QBXAZ", "master", "alchymisti", "dragon", "mix1", "--golem", "",
         "фейерверк", "\x00", "\t", "sun", "moon", "offer", "answer")
SENTINEL = "sentinel-7f3a9c"
LEGIT_CHANGES = ("new", "restore")  # commands allowed to replace the game (when the reply is not an error)


@pytest.fixture(scope="module")
def console_kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Kit, Pty]]:
    pty = Pty()
    kit = make_kit(tmp_path_factory.mktemp("console") / "state", **{"console.url": pty.path})
    with running(kit):
        assert kit.console_worker.connected.wait(10)
        yield kit, pty
    pty.close()


def game_state(pty: Pty) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    status = pty.ask("status")
    history = pty.ask("history")
    return status, history.get("history", history)


def replies_until_sentinel(pty: Pty) -> list[dict[str, Any]]:
    """The replies before the answer to a sentinel line no fuzzer will write."""
    pty.send(SENTINEL.encode() + b"\n")
    replies = []
    while True:
        reply = pty.reply(10.0)
        assert reply is not None, f"the kit stopped answering after {replies}"
        if SENTINEL in reply.get("error", {}).get("message", ""):
            return replies
        replies.append(reply)


def assert_clear_error(reply: dict[str, Any]) -> None:
    error = reply["error"]
    assert set(error) == {"kind", "message"}, reply
    assert re.fullmatch(r"[a-z_]+", error["kind"]), reply
    assert isinstance(error["message"], str) and 0 < len(error["message"]) < 400, reply
    assert "Traceback" not in error["message"] and "\n" not in error["message"], reply


def check_one_line(pty: Pty, payload: bytes) -> dict[str, Any] | None:
    """Send one line; it gets exactly one reply (none when blank); an error changes nothing."""
    before = game_state(pty)
    pty.send(payload + b"\n")
    replies = replies_until_sentinel(pty)
    text = payload.decode("utf-8", errors="replace")
    if len(payload) > MAX_LINE_BYTES:
        assert len(replies) == 1 and replies[0]["error"]["kind"] == "line_too_long", replies
        assert str(MAX_LINE_BYTES) in replies[0]["error"]["message"]
    elif not text.strip(" \t"):  # only ASCII spaces and tabs separate words (and make a blank line)
        assert replies == [], replies
        return None
    assert len(replies) == 1, f"{payload!r} got {replies}"
    reply = replies[0]
    if "error" in reply:
        assert_clear_error(reply)
        assert game_state(pty) == before, f"{payload!r} was refused but changed the game"
    else:
        words = [word for word in re.split(r"[ \t]+", text) if word]
        assert words and (words[0].lower() in LEGIT_CHANGES or game_state(pty)[0].get("code") == before[0].get("code")), (
            f"{payload!r} replaced the game: {reply}")
    return reply


line_bytes = st.binary(max_size=700).filter(lambda b: b"\n" not in b and b"\r" not in b)
word_lines = st.lists(st.sampled_from(WORDS) | st.text(max_size=12).filter(lambda t: not re.search(r"[\r\n\x1c-\x1e\x85\u2028\u2029]", t)),
                      max_size=7).map(" ".join).map(lambda t: t.encode("utf-8"))


@FUZZ
@given(payload=line_bytes)
@example(payload=b"\xff\xfe\xfd not utf-8 \xc3\x28")
@example(payload=b"x" * (MAX_LINE_BYTES + 1))
@example(payload=b"\x00\x00\x00")
def test_random_bytes_on_the_serial_console(console_kit, payload: bytes) -> None:
    kit, pty = console_kit
    check_one_line(pty, payload)


@FUZZ
@given(payload=word_lines)
@example(payload=b"frobnicate fern toad")
@example(payload=b"mix fern")
@example(payload=b"mix fern toad claw")
@example(payload=b"sell R+ fern")
@example(payload=b"debunk fern")
@example(payload=b"restore")
@example(payload=b"reveal")
def test_command_like_lines_on_the_serial_console(console_kit, payload: bytes) -> None:
    kit, pty = console_kit
    if game_state(pty)[0].get("error"):
        pty.ask("restore DEMO")
    check_one_line(pty, payload)


@pytest.mark.parametrize(("line", "kind", "named"), [
    ("frobnicate fern toad", "bad_command", "frobnicate"),
    ("mix fern dragon", "unknown_ingredient", "dragon"),
    ("mix fern", "bad_command", "mix"),
    ("mix fern toad claw", "bad_command", "mix"),
    ("sell R7 fern toad", "unknown_potion", "R7"),
    ("debunk fern Q", "unknown_colour", "R, G, B"),
    ("restore ZZ9Z", "invalid_code", "ZZ9Z"),
    ("restore AB", "invalid_code", "AB"),
    ("new sideways", "bad_command", "sideways"),
    ("reveal", "bad_command", "reveal confirm"),
])
def test_console_errors_name_the_problem(console_kit, line: str, kind: str, named: str) -> None:
    kit, pty = console_kit
    pty.ask("restore DEMO apprentice alchemists")
    before = game_state(pty)
    reply = pty.ask(line)
    assert reply["error"]["kind"] == kind, reply
    assert named.lower() in reply["error"]["message"].lower(), reply
    assert game_state(pty) == before


def test_the_console_over_a_pty_asks_only_what_the_game_options_allow(console_kit) -> None:
    kit, pty = console_kit
    golem_code = pty.ask("new golem")["code"]
    assert pty.ask("library fern")["error"]["kind"] == "no_library_offer"
    offered = pty.ask("library offer")["ingredients"]
    other = next(name for name in ("fern", "claw", "mushroom", "flower", "root") if name not in offered)
    assert pty.ask(f"library {other}")["error"]["kind"] == "not_offered"
    assert pty.ask(f"library {offered[2]}")["class"] in ("sun", "moon")
    refused = {
        "new master": ["debunk fern R", "debunk fern toad"],
        "new apprentice": ["debunk fern toad N", "debunk fern toad", "golem animate fern fern"],
        "new alchymisti": ["debunk fern R", "debunk fern toad N", "exhibit R+ fern toad", "golem test fern",
                           "library offer", f"restore {golem_code} alchymisti", "new golem alchymisti"],
    }
    for new, lines in refused.items():
        assert "code" in pty.ask(new)
        before = game_state(pty)
        for line in lines:
            error = pty.ask(line)["error"]
            assert error["kind"] in ("not_in_rules", "not_at_level", "no_golem"), (new, line, error)
            assert game_state(pty) == before, (new, line)
    assert pty.ask("debunk fern toad")["potion"] in ("R+", "R-", "G+", "G-", "B+", "B-", "N")
    pty.ask("restore DEMO apprentice alchemists")


def test_a_flood_of_lines_is_answered_line_by_line_and_the_kit_stays_responsive(console_kit) -> None:
    kit, pty = console_kit
    pty.ask("restore DEMO")
    before = game_state(pty)
    lines = [b"mix fern", b"\xff" * 40, b"y" * 3000, b"status", b"nonsense " * 20] * 100
    writer = threading.Thread(target=pty.send, args=(b"\n".join(lines) + b"\n",))
    writer.start()  # the pty holds a few kB: write while the replies are read
    replies = [pty.reply(30.0) for _ in lines]
    writer.join()
    assert all(reply is not None for reply in replies), "lines went unanswered"
    kinds = [reply["error"]["kind"] if "error" in reply else "ok" for reply in replies]  # type: ignore[index,operator]
    assert kinds == ["bad_command", "bad_command", "line_too_long", "ok", "bad_command"] * 100
    assert game_state(pty) == before
    assert "MenuView" in screen_text(kit) and kit.daemon.ask_console("status")["code"] == "DEMO"


# -- the command line ----------------------------------------------------------------------------------

cli_args = st.lists(st.sampled_from(WORDS + ("ask", "vision", "enroll", "identify", "--level", "--config",
                                             "config", "--dump")) | st.text(max_size=10),
                    max_size=6)


def run_cli(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, list[dict[str, Any]]]:
    status = labkit_main(args)
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines() if line.strip()]


@FUZZ
@given(args=cli_args)
@example(args=["ask", "DEMO", "mix", "fern"])
@example(args=["ask", "DEMO"])
@example(args=["config"])
@example(args=["vision", "identify"])
@example(args=["help"])
@example(args=[])
@example(args=["ask", "\udcff", "mix", "fern", "toad"])
def test_the_command_line_answers_json_or_a_json_error(capsys, args: list[str]) -> None:
    words = [arg.lower() for arg in args]
    assume(words[:1] != ["run"])  # it would start the daemon: its bad options are checked below
    assume(not any(word.startswith("-h") or word.startswith("--h") for word in words))  # help is text
    assume(not (words[:1] == ["config"] and "--dump" in words and "--config" not in words))
    status, replies = run_cli(capsys, args)
    assert status in (0, 2)
    assert len(replies) >= (0 if status == 0 and words[:2] == ["vision", "identify"] else 1), replies
    if status == 2:  # one error; or, from vision identify, a line per image, some of them errors
        errors = [reply for reply in replies if "error" in reply]
        assert errors and (len(replies) == 1 or words[:2] == ["vision", "identify"]), replies
        for reply in errors:
            assert_clear_error(reply)
    else:
        assert all("error" not in reply for reply in replies)


@pytest.mark.parametrize(("args", "named"), [
    (["frobnicate"], "frobnicate"),
    (["ask", "DEMO", "mix", "fern", "dragon"], "dragon"),
    (["ask", "ABCß", "mix", "fern", "toad"], "ß"),
    (["new", "--gollem"], "--gollem"),
    (["run", "--simulatee"], "--simulatee"),
    (["run", "--state-dir"], "--state-dir"),
    (["config", "--config", "/nonexistent/labkit.toml", "--dump"], "/nonexistent/labkit.toml"),
])
def test_command_line_errors_name_the_problem(capsys, args: list[str], named: str) -> None:
    status, replies = run_cli(capsys, args)
    assert status == 2 and named in replies[0]["error"]["message"], replies


# -- game codes ----------------------------------------------------------------------------------------

@FUZZ
@given(code=st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\r\n\x1c\x1d\x1e\x85\u2028\u2029"),
                    min_size=1, max_size=8).filter(lambda t: t.strip() and len(t.split()) == 1))
@example(code="DEMO")
@example(code="abcd")
@example(code="QBXAZ")
@example(code="AAAAA")
@example(code="ÀBCD")
def test_game_codes_are_read_or_refused_naming_the_code(console_kit, code: str) -> None:
    kit, pty = console_kit
    code = code.split()[0]  # what the console sees of the line
    pty.ask("restore DEMO")
    pty.ask("mix mushroom toad")
    before = game_state(pty)
    reply = pty.ask(f"restore {code}")
    if "error" in reply:
        assert_clear_error(reply)
        assert reply["error"]["kind"] in ("invalid_code", "bad_command"), reply
        message = reply["error"]["message"]
        assert any(form in message for form in (code, code.upper(), repr(code)[1:-1], repr(code.upper())[1:-1])), reply
        assert game_state(pty) == before
    else:
        assert reply["code"] == code.upper() and game_state(pty)[0]["questions"] == 0


# -- the configuration file ------------------------------------------------------------------------------

DEFAULT_TOML = (Path(__file__).resolve().parents[2] / "firmware" / "default_config.toml").read_text()
KEYS = [(section, key) for section, table in tomllib.loads(DEFAULT_TOML).items() for key in table]
BAD_VALUES = ['"sideways"', "-1", "99999999", "true", "1.5", "[1, 2]", "{a = 1}", '""', "nan", "inf",
              '"/dev/null"', "[]", '["--display", 7]']


def config_result(path: Path) -> Any:
    try:
        return load_config(path)
    except ConfigError as error:
        return error


@FUZZ
@given(key=st.sampled_from(KEYS), value=st.sampled_from(BAD_VALUES))
def test_a_bad_configuration_value_is_refused_naming_file_and_key(tmp_path_factory, key: tuple[str, str], value: str) -> None:
    section, name = key
    path = tmp_path_factory.mktemp("config") / "labkit.toml"
    path.write_text(f"[{section}]\n{name} = {value}\n")
    result = config_result(path)
    if isinstance(result, ConfigError):
        message = str(result)
        assert str(path) in message and name in message, message
        assert "\n" not in message


@FUZZ
@given(cut=st.integers(0, len(DEFAULT_TOML.encode())), junk=st.binary(max_size=20))
def test_a_truncated_or_damaged_configuration_file_is_refused_naming_the_file(tmp_path_factory, cut: int, junk: bytes) -> None:
    path = tmp_path_factory.mktemp("config") / "labkit.toml"
    path.write_bytes(DEFAULT_TOML.encode()[:cut] + junk)
    result = config_result(path)
    if isinstance(result, ConfigError):
        assert str(result).startswith(f"config {path}: "), result


@pytest.mark.parametrize(("text", "named"), [
    ("[camera]\nfps = 30\n", "fps"),
    ("[cammera]\n", "cammera"),
    ("[camera]\nwidth = 0\n", "width"),
    ("[console]\nenabled = \"yes\"\n", "enabled"),
    ("[display]\nluma = \"--display ssd1306\"\n", "luma"),
    ("this is not toml", "not valid TOML"),
])
def test_configuration_errors_reach_the_command_line(tmp_path: Path, capsys, text: str, named: str) -> None:
    path = tmp_path / "labkit.toml"
    path.write_text(text)
    status, replies = run_cli(capsys, ["run", "--simulate", "--config", str(path)])
    assert status == 2 and replies[0]["error"]["kind"] == "bad_config", replies
    assert named in replies[0]["error"]["message"] and str(path) in replies[0]["error"]["message"]


# -- reference files and enrolment images -----------------------------------------------------------

@pytest.fixture(scope="module")
def good_references(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("refs") / "cards.json"
    placeholder_references().save(path)
    return path.read_bytes()


@FUZZ
@given(cut=st.integers(0, 10**9))
def test_a_truncated_reference_file_is_refused_naming_the_file(tmp_path_factory, good_references: bytes, cut: int) -> None:
    path = tmp_path_factory.mktemp("refs") / "cards.json"
    path.write_bytes(good_references[: cut % len(good_references)])
    with pytest.raises(ReferenceFileError) as caught:
        load_references(path)
    assert str(path) in str(caught.value)


def reference_variants(good: bytes) -> dict[str, tuple[bytes | None, str]]:
    data = json.loads(good)
    other = dict(data, version=data["version"] + 1)
    foreign = dict(data, schema="someone.else")
    broken_face = dict(data, faces={**data["faces"], "fern": base64.b64encode(b"not a png").decode()})
    return {
        "missing": (None, "no such file"),
        "empty": (b"", "not valid JSON"),
        "another version": (json.dumps(other).encode(), "another version"),
        "another schema": (json.dumps(foreign).encode(), "not a card reader reference file"),
        "undecodable face": (json.dumps(broken_face).encode(), "'fern' cannot be decoded"),
        "binary": (bytes(range(256)), "cannot read it"),
    }


@pytest.mark.parametrize("variant", ["missing", "empty", "another version", "another schema", "undecodable face", "binary"])
def test_bad_reference_files_are_refused_at_every_edge_and_the_game_is_kept(
        tmp_path: Path, capsys, good_references: bytes, expected_errors, variant: str) -> None:
    content, problem = reference_variants(good_references)[variant]
    path = tmp_path / "cards.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ReferenceFileError, match=re.escape(problem)):
        load_references(path)
    image = tmp_path / "shelf.png"
    cv2.imwrite(str(image), np.full((480, 640, 3), 40, np.uint8))
    status, replies = run_cli(capsys, ["vision", "identify", str(path), str(image)])
    assert status == 2 and replies[0]["error"]["kind"] == "bad_references" and str(path) in replies[0]["error"]["message"]
    state = tmp_path / "state"
    with running(make_kit(state)) as kit:  # a game in progress...
        kit.daemon.ask_console("restore DEMO")
        kit.daemon.ask_console("mix mushroom toad")
    expected_errors.expect("card references unusable")
    with running(make_kit(state, **{"reader.references": str(path)})) as kit:  # ...and a restart on bad references
        wait_for(lambda: "card references unusable" in screen_text(kit), what="the problem on the screen")
        status_reply = kit.daemon.ask_console("status")
        assert (status_reply["code"], status_reply["questions"]) == ("DEMO", 1)
        kit.shelf.lay(["fern", "toad"])  # the placeholder faces still read the cards
        assert sorted(kit.daemon.ask_console("scan")["ingredients"]) == ["fern", "toad"]


def copy_faces(tmp_path: Path) -> Path:
    faces = tmp_path / "faces"
    shutil.copytree(shipped_faces_dir(), faces)
    return faces


@pytest.mark.parametrize(("damage", "kind", "named"), [
    ("missing", "missing_face", "toad.png"),
    ("truncated", "unreadable_image", "toad.png"),
    ("text", "unreadable_image", "toad.png"),
    ("tiny", "bad_face", "toad"),
    ("no folder", "missing_faces", "faces"),
])
def test_bad_enrolment_images_are_refused_naming_the_file_and_the_references_are_kept(
        tmp_path: Path, capsys, good_references: bytes, damage: str, kind: str, named: str) -> None:
    faces = copy_faces(tmp_path)
    toad = faces / "toad.png"
    if damage == "missing":
        toad.unlink()
    elif damage == "truncated":
        toad.write_bytes(toad.read_bytes()[:100])
    elif damage == "text":
        toad.write_text("this is not a picture")
    elif damage == "tiny":
        cv2.imwrite(str(toad), np.zeros((2, 2, 3), np.uint8))
    elif damage == "no folder":
        shutil.rmtree(faces)
    refs = tmp_path / "cards.json"
    refs.write_bytes(good_references)
    status, replies = run_cli(capsys, ["vision", "enroll", str(faces), str(refs)])
    assert status == 2 and replies[0]["error"]["kind"] == kind, replies
    assert named in replies[0]["error"]["message"], replies
    assert refs.read_bytes() == good_references, "a refused enrolment changed the reference file"


def test_the_screen_names_the_reference_file_problem(tmp_path: Path, good_references: bytes, expected_errors) -> None:
    expected_errors.expect("card references unusable")
    content, problem = reference_variants(good_references)["another version"]
    path = Path(tempfile.mkdtemp(dir="/tmp")) / "cards.json"  # a path as short as the kit's own
    try:
        path.write_bytes(content or b"")
        with running(make_kit(tmp_path / "state", **{"reader.references": str(path)})) as kit:
            wait_for(lambda: "card references unusable" in screen_text(kit), what="the problem on the screen")
            assert problem in screen_text(kit), screen_text(kit)
    finally:
        shutil.rmtree(path.parent)
