"""Structural facts of RULES.md §1 to §3, checked over all alchemicals."""

from __future__ import annotations

import itertools

import pytest

from engine import (
    ALCHEMICALS,
    INGREDIENT_IDS,
    Colour,
    LibraryClass,
    Potion,
    Size,
    UnknownNameError,
    library_class,
    mix,
    neutral_partner,
    parse_alchemical,
    parse_colour,
    parse_ingredient,
    parse_potion,
    parse_size,
)

PAIRS = [(a, b) for a, b in itertools.permutations(ALCHEMICALS, 2)]


def test_ingredients_in_app_order() -> None:
    assert INGREDIENT_IDS == ("fern", "claw", "mushroom", "flower", "root", "scorpion", "toad", "feather")


def test_alchemicals_in_app_order_with_partners_and_classes() -> None:
    table = [
        ("Ppn", "Nnp", "moon"), ("nPp", "pNn", "moon"), ("pnP", "npN", "moon"), ("Nnp", "Ppn", "sun"),
        ("pNn", "nPp", "sun"), ("npN", "pnP", "sun"), ("PPP", "NNN", "sun"), ("NNN", "PPP", "moon"),
    ]
    for alchemical, (notation, partner, klass) in zip(ALCHEMICALS, table, strict=True):
        assert alchemical.notation == notation
        assert neutral_partner(alchemical).notation == partner
        assert library_class(alchemical).value == klass


@pytest.mark.parametrize("first, second", PAIRS)
def test_mix_is_symmetric(first, second) -> None:
    assert mix(first, second) is mix(second, first)


def test_at_most_one_aspect_matches() -> None:
    for first, second in PAIRS:
        matches = [
            c for c in Colour
            if first.aspect(c).sign == second.aspect(c).sign and first.aspect(c).size is not second.aspect(c).size
        ]
        assert len(matches) <= 1


def test_each_alchemical_has_exactly_one_neutral_partner() -> None:
    for alchemical in ALCHEMICALS:
        partners = [other for other in ALCHEMICALS if other != alchemical and mix(alchemical, other) is Potion.NEUTRAL]
        assert partners == [neutral_partner(alchemical)]
        partner = partners[0]
        for colour in Colour:
            assert partner.aspect(colour).sign == -alchemical.aspect(colour).sign
            assert partner.aspect(colour).size is alchemical.aspect(colour).size


@pytest.mark.parametrize(
    "shared, allowed", [(Colour.R, {Colour.R, Colour.G}), (Colour.G, {Colour.G, Colour.B}), (Colour.B, {Colour.B, Colour.R})]
)
def test_two_colour_rule(shared: Colour, allowed: set[Colour]) -> None:
    pairs = [(a, b) for a, b in PAIRS if a.aspect(shared).sign == b.aspect(shared).sign]
    assert pairs
    for first, second in pairs:
        assert mix(first, second).colour in allowed


@pytest.mark.parametrize("colour", list(Colour))
def test_four_plus_and_four_minus_per_colour(colour: Colour) -> None:
    signs = [alchemical.aspect(colour).sign for alchemical in ALCHEMICALS]
    assert signs.count(1) == 4 and signs.count(-1) == 4


def test_each_colour_has_one_large_and_two_small_per_alchemical_except_the_extremes() -> None:
    for alchemical in ALCHEMICALS:
        sizes = [aspect.size for aspect in alchemical.aspects]
        expected_large = 3 if alchemical.notation in ("PPP", "NNN") else 1
        assert sizes.count(Size.LARGE) == expected_large


def test_sun_moon_split() -> None:
    classes = [library_class(alchemical) for alchemical in ALCHEMICALS]
    assert classes.count(LibraryClass.SUN) == 4 and classes.count(LibraryClass.MOON) == 4
    for alchemical, klass in zip(ALCHEMICALS, classes):
        negatives = sum(aspect.sign < 0 for aspect in alchemical.aspects)
        assert (klass is LibraryClass.SUN) == (negatives in (0, 2))


def test_every_potion_is_made_by_some_pair() -> None:
    assert {mix(a, b) for a, b in PAIRS} == set(Potion)


@pytest.mark.parametrize(
    "parse, text, kind",
    [
        (parse_ingredient, "dragon", "unknown_ingredient"),
        (parse_potion, "R*", "unknown_potion"),
        (parse_colour, "yellow", "unknown_colour"),
        (parse_alchemical, "ppp", "unknown_alchemical"),
        (parse_size, "huge", "unknown_size"),
    ],
)
def test_unknown_names_are_refused_by_name(parse, text: str, kind: str) -> None:
    with pytest.raises(UnknownNameError) as caught:
        parse(text)
    assert caught.value.kind == kind
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_parsing_is_case_insensitive_where_the_notation_allows() -> None:
    assert parse_ingredient(" FEATHER ").id == "feather"
    assert parse_potion("g+") is Potion.GREEN_PLUS
    assert parse_colour("b") is Colour.B
    assert parse_alchemical("pNn").notation == "pNn"
