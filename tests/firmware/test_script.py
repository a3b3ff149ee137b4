"""Simulator scripts: parsing with notes and sections, and each action told as it is played."""

from __future__ import annotations

import pytest

from firmware.runtime import Kit
from firmware.script import ScriptError, ScriptStep, parse_script, play_script
from tests.firmware.test_runtime import kit  # noqa: F401  (the simulator's kit, started)


def test_a_comment_opening_a_paragraph_names_the_section_and_a_trailing_comment_is_a_note() -> None:
    steps = parse_script(
        "# the file's title\n"
        "# a second comment line is not a section\n"
        "\n"
        "# sell [1]: two cards\n"
        "press down ok        # sell\n"
        "shelf fern toad\n"
        "\n"
        "press ok\n"
        "# a comment inside a paragraph\n"
        "press back\n"
    )
    assert steps == [
        ScriptStep(5, "press", ("down", "ok"), "sell", "sell [1]: two cards"),
        ScriptStep(6, "shelf", ("fern", "toad"), "", "sell [1]: two cards"),
        ScriptStep(8, "press", ("ok",), "", "sell [1]: two cards"),
        ScriptStep(10, "press", ("back",), "", "sell [1]: two cards"),
    ]


def test_a_script_with_a_bad_line_names_it_before_anything_is_played() -> None:
    with pytest.raises(ScriptError, match="line 3: buttons are up, down, ok, back; got left"):
        parse_script("press ok\n# note\npress left\n")


def test_each_button_is_told_apart_with_the_view_it_left_and_the_note_goes_with_the_last(kit: Kit) -> None:
    told: list[tuple[str, tuple[str, ...], str, str]] = []
    play_script(kit, """
        # new game
        press ok down     # on Start
        expect SettingsView
    """, on_step=lambda step, words, view: told.append((step.verb, words, step.note, view)))
    assert told == [("press", ("ok",), "", "SettingsView"),
                    ("press", ("down",), "on Start", "SettingsView")]
