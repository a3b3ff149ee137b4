"""The command language: words to questions, with an error naming every bad word."""

from __future__ import annotations

import pytest

from engine import (
    Colour,
    CommandError,
    DebunkPair,
    DebunkPotion,
    DebunkSign,
    Exhibit,
    GolemAnimate,
    GolemTest,
    Ingredient,
    LabkitError,
    LibraryAnswer,
    LibraryOffer,
    Mix,
    Potion,
    Reveal,
    Sell,
    error_reply,
    parse_question,
)


@pytest.mark.parametrize(
    "line, question",
    [
        ("mix fern toad", Mix(Ingredient.FERN, Ingredient.TOAD)),
        ("MIX Fern TOAD", Mix(Ingredient.FERN, Ingredient.TOAD)),
        ("sell r+ root claw", Sell(Potion.RED_PLUS, Ingredient.ROOT, Ingredient.CLAW)),
        ("debunk feather g", DebunkSign(Ingredient.FEATHER, Colour.G)),
        ("debunk fern claw N", DebunkPair(Ingredient.FERN, Ingredient.CLAW, Potion.NEUTRAL)),
        ("debunk fern claw", DebunkPotion(Ingredient.FERN, Ingredient.CLAW)),
        ("exhibit B- toad root", Exhibit(Potion.BLUE_MINUS, Ingredient.TOAD, Ingredient.ROOT)),
        ("golem test scorpion", GolemTest(Ingredient.SCORPION)),
        ("Golem Animate fern flower", GolemAnimate(Ingredient.FERN, Ingredient.FLOWER)),
        ("library claw", LibraryAnswer(Ingredient.CLAW)),
        ("library offer", LibraryOffer()),
        ("reveal", Reveal()),
    ],
)
def test_every_form_parses(line: str, question: object) -> None:
    assert parse_question(line.split()) == question


@pytest.mark.parametrize(
    "line, kind, fragment",
    [
        ("", "bad_command", "empty command"),
        ("brew fern toad", "bad_command", "unknown command 'brew'"),
        ("mix fern", "bad_command", "expected 3 words, got 2"),
        ("mix fern toad root", "bad_command", "expected 3 words, got 4"),
        ("sell R+ fern", "bad_command", "'sell POTION ING ING'"),
        ("golem", "bad_command", "golem test ING"),
        ("golem dance fern", "bad_command", "golem animate ING ING"),
        ("debunk fern", "bad_command", "debunk ING COLOUR"),
        ("reveal now", "bad_command", "expected 1 words, got 2"),
        ("mix fern dragon", "unknown_ingredient", "'dragon'"),
        ("sell X+ fern toad", "unknown_potion", "'X+'"),
        ("debunk fern toad Q", "unknown_potion", "'Q'"),
        ("debunk fern purple", "unknown_colour", "colour (R, G, B) or a second ingredient"),
        ("debunk fern toadd", "unknown_colour", "'toadd'"),
        ("debunk fernn R", "unknown_ingredient", "'fernn'"),
    ],
)
def test_bad_commands_name_the_problem(line: str, kind: str, fragment: str) -> None:
    with pytest.raises(LabkitError) as caught:
        parse_question(line.split())
    assert caught.value.kind == kind
    assert fragment in str(caught.value)
    assert error_reply(caught.value) == {"error": {"kind": kind, "message": str(caught.value)}}


def test_command_errors_are_value_errors() -> None:
    assert issubclass(CommandError, ValueError)
