"""The per-flow GIFs: a trace written as the simulator plays, a timeline per section, captions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import firmware.screens.views as views
from firmware.demo_gif import (
    PASSING_FRAMES, PASSING_MS, RESULT_MS, RESULT_VIEWS, STEP_MS, Action, captioned, gif_name,
    main, make_flow_gifs, read_trace, sections, timeline,
)
from firmware.script import parse_script

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """\
# new game [0]: with the golem
press ok
press up ok down ok   # golem on, then Start
press ok

# experiment [0]: two cards
press ok
shelf clear
press ok
shelf fern toad
press ok              # confirmed
press ok
shelf clear

# reveal [7]: held, confirmed
press down down down down down down down ok
down ok back
wait 3.5
up ok back
press ok
"""


def action(before: int, after: int, view: str = "MenuView", section: str = "s", note: str = "") -> Action:
    return Action(before, after, section, "press ok", note, view)


def frame_durations(gif: Image.Image) -> list[int]:
    durations = []
    for index in range(gif.n_frames):
        gif.seek(index)
        durations.append(gif.info["duration"])
    return durations


def test_every_result_view_named_is_a_screen() -> None:
    assert all(isinstance(getattr(views, name, None), type) for name in RESULT_VIEWS)


def test_a_result_is_held_and_a_long_run_of_passing_frames_is_cut_to_a_few() -> None:
    shown = timeline([action(3, 4), action(4, 40, view="HoldView"), action(40, 41, view="PotionView", note="healing")])
    assert shown[0] == (3, "", STEP_MS)  # the screen the section opens on
    assert shown[1] == (4, "press ok", STEP_MS)
    passing = [entry for entry in shown if entry[2] == PASSING_MS]
    assert len(passing) == PASSING_FRAMES and all(4 < number < 40 for number, _, _ in passing)
    assert shown[-2] == (40, "press ok", STEP_MS)
    assert shown[-1] == (41, "press ok · healing", RESULT_MS)


def test_an_action_that_draws_nothing_adds_no_frame() -> None:
    assert timeline([action(0, 2), action(2, 2), action(2, 3)]) == [
        (1, "press ok", PASSING_MS), (2, "press ok", STEP_MS), (3, "press ok", STEP_MS)]


def test_a_section_that_comes_back_later_is_its_own_gif() -> None:
    groups = list(sections([action(0, 1, section="a"), action(1, 2, section="b"), action(2, 3, section="a")]))
    assert [name for name, _ in groups] == ["a", "b", "a"]
    assert gif_name(7, "golem test [4]: one card") == "07-golem-test.gif"


def test_the_caption_strip_is_drawn_under_the_enlarged_panel() -> None:
    panel = Image.new("1", (128, 64), 0)
    plain, pressed = captioned(panel, "sell", ""), captioned(panel, "sell", "press ok · healing")
    assert plain.width == 3 * 128 and plain.height > 3 * 64
    strip = (0, plain.height - 20, plain.width, plain.height)
    assert plain.crop(strip).getextrema() != pressed.crop(strip).getextrema()


def test_a_missing_or_damaged_trace_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no script.tsv in"):
        read_trace(tmp_path)
    (tmp_path / "script.tsv").write_text("before\tafter\nx\t2\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"script.tsv, row 2: expected the columns before, after, line"):
        read_trace(tmp_path)
    assert main([str(tmp_path), str(tmp_path / "out")]) == 1
    assert not (tmp_path / "out").exists()


def test_the_simulator_writes_a_trace_and_each_flow_becomes_a_captioned_gif(tmp_path: Path) -> None:
    script, frames = tmp_path / "flows.txt", tmp_path / "frames"
    script.write_text(SCRIPT, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "run", "--simulate", "--headless", "--state-dir",
         str(tmp_path / "state"), "--frames-dir", str(frames), "--script", str(script)],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    trace = read_trace(frames)
    assert trace[0].before == 1  # the first screen was drawn before the first press
    assert [a.note for a in trace if a.note] == ["golem on, then Start", "confirmed"]

    made = make_flow_gifs(frames, tmp_path / "gifs")
    assert [path.name for _, path, _ in made] == ["01-new-game.gif", "02-experiment.gif", "03-reveal.gif"]
    durations = {}
    for _, path, count in made:
        with Image.open(path) as gif:
            assert gif.n_frames == count
            durations[path.name] = frame_durations(gif)
    assert RESULT_MS in durations["02-experiment.gif"]  # the potion
    assert durations["03-reveal.gif"].count(PASSING_MS) <= PASSING_FRAMES  # the hold bar, quickly
    assert RESULT_MS in durations["03-reveal.gif"]  # the first page of the reveal
    index = (tmp_path / "gifs" / "index.md").read_text(encoding="utf-8")
    assert "## Experiment: two cards" in index and "(02-experiment.gif)" in index


def test_the_docs_hold_one_gif_for_each_flow_of_the_walkthrough() -> None:
    steps = parse_script((ROOT / "firmware" / "scripts" / "walkthrough.txt").read_text(encoding="utf-8"))
    played = [Action(0, 0, step.section, step.verb, "", "") for step in steps if step.verb != "expect"]
    wanted = [gif_name(index, name) for index, (name, _) in enumerate(sections(played), start=1)]
    assert sorted(path.name for path in (ROOT / "docs" / "flows").glob("*.gif")) == wanted
