"""``labkit`` plays official codes of every algorithm, including golem codes the old kit misread.

Until issue 14 the kit read a 5-letter code as a 2014 base code plus a fifth letter of its own:
official King's Golem codes whose first four letters end A..E (or are DEMO) and whose fifth letter
that scheme accepted were played as another game without a word (RULES.md §7).
"""

from __future__ import annotations

import itertools
import json
import random
import string

import pytest

from engine import ALCHEMICALS, INGREDIENT_IDS, decode_code
from engine.legacy_codes import read_legacy_kit_code
from firmware.cli import main

APP_ORDER = ("R+", "G+", "B+", "R-", "G-", "B-", "++", "--")  # RULES.md §2, the app's names
NOTATION = {name: alchemical.notation for name, alchemical in zip(APP_ORDER, ALCHEMICALS)}


def ask(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    status = main(["ask", *args])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0 and len(lines) == 1, lines
    reply = json.loads(lines[0])
    assert isinstance(reply, dict)
    return reply


def assignment(names: str) -> dict[str, str]:
    return {ingredient: NOTATION[name] for ingredient, name in zip(INGREDIENT_IDS, names.split())}


def test_labkit_ask_qwin_reveal_plays_the_2015_vector(capsys: pytest.CaptureFixture[str]) -> None:
    reply = ask(capsys, "QWIN", "reveal")
    assert reply == {"ingredients": assignment("R+ G+ B+ B- R- -- G- ++"), "golem": None}


def test_labkit_ask_golem_reveal_plays_the_golem_vector(capsys: pytest.CaptureFixture[str]) -> None:
    reply = ask(capsys, "GOLEM", "reveal")
    assert reply["ingredients"] == assignment("R+ ++ G- B+ G+ R- B- --")
    assert reply["golem"] == {
        "chest": {"colour": "G", "size": "large"},
        "ears": {"colour": "B", "size": "small"},
        "animate": ["fern", "toad"],  # the two alchemicals with G+ and B-: R+ and B-
    }
    assert ask(capsys, "golem", "golem", "animate", "toad", "fern") == {"animated": True}
    assert ask(capsys, "GOLEM", "golem", "test", "claw") == {"chest": True, "ears": False}  # ++: all large


def overlap_codes() -> list[str]:
    """5-letter codes the previous version accepted as a base code ending A..E plus its fifth letter."""
    bases = ["".join(letters) + last for letters in itertools.product("AGMSY", "BHNTZ", "CIOU") for last in "ABCDE"]
    found = []
    for base in [*bases, "DEMO"]:
        for letter in string.ascii_uppercase:
            try:
                read_legacy_kit_code(base + letter)
            except ValueError:
                continue
            found.append(base + letter)
    return found


def test_golem_is_in_todays_overlap_and_was_read_as_another_game() -> None:
    legacy = read_legacy_kit_code("GOLEM")  # the previous version accepted it (fern PPP, claw Ppn)
    assert [ALCHEMICALS[alchemical].notation for alchemical in legacy.permutation[:2]] == ["PPP", "Ppn"]
    assert (legacy.permutation, legacy.golem) != (decode_code("GOLEM").permutation, decode_code("GOLEM").golem)


def test_overlap_codes_are_played_as_official_golem_codes(capsys: pytest.CaptureFixture[str]) -> None:
    codes = random.Random(14).sample(overlap_codes(), 40)
    changed = 0
    for code in codes:
        official = decode_code(code)
        assert official.algorithm == "golem" and official.golem is not None
        reply = ask(capsys, code.lower(), "reveal")
        expected = {ingredient: ALCHEMICALS[alchemical].notation
                    for ingredient, alchemical in zip(INGREDIENT_IDS, official.permutation)}
        assert reply["ingredients"] == expected
        assert reply["golem"]["chest"] == official.golem.chest.to_data()  # type: ignore[index]
        legacy = read_legacy_kit_code(code)
        changed += (legacy.permutation, legacy.golem) != (official.permutation, official.golem)
    assert changed == len(codes)  # every one of them was another game under the old reading
