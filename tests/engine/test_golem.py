"""The golem (RULES.md §5): 24 configurations, reactions by size only, one animating pair each."""

from __future__ import annotations

import itertools

import pytest

from engine import (
    ALCHEMICALS,
    GOLEMS,
    Colour,
    Game,
    Golem,
    GolemAnimate,
    GolemReaction,
    IllegalQuestionError,
    Ingredient,
    Size,
    neutral_partner,
)
from engine.codes import codes_to_hand_out


def test_there_are_24_distinct_configurations_with_differing_colours() -> None:
    assert len(GOLEMS) == 24 == len(set(GOLEMS))
    assert all(golem.chest.colour is not golem.ears.colour for golem in GOLEMS)
    assert {golem.index for golem in GOLEMS} == set(range(24))


def test_chest_and_ears_may_not_share_a_colour() -> None:
    with pytest.raises(IllegalQuestionError, match="same colour R"):
        Golem(GolemReaction(Colour.R, Size.LARGE), GolemReaction(Colour.R, Size.SMALL))


@pytest.mark.parametrize("golem", GOLEMS, ids=lambda g: f"golem{g.index}")
def test_exactly_one_animating_pair(golem: Golem) -> None:
    pairs = [
        {a, b}
        for a, b in itertools.combinations(ALCHEMICALS, 2)
        if all(x.aspect(r.colour).sign == r.needed_sign for x in (a, b) for r in (golem.chest, golem.ears))
    ]
    assert len(pairs) == 1
    assert pairs[0] == set(golem.animating_alchemicals())


@pytest.mark.parametrize("golem", GOLEMS, ids=lambda g: f"golem{g.index}")
def test_reactions_depend_on_size_never_sign(golem: Golem) -> None:
    for alchemical in ALCHEMICALS:
        chest, ears = golem.reaction_to(alchemical)
        assert chest == (alchemical.aspect(golem.chest.colour).size is golem.chest.size)
        assert ears == (alchemical.aspect(golem.ears.colour).size is golem.ears.size)
        assert golem.reaction_to(neutral_partner(alchemical)) == (chest, ears)


def test_in_every_golem_game_exactly_two_ingredients_animate() -> None:
    for golem in GOLEMS:
        game = Game.from_code(codes_to_hand_out((3, 5, 0, 7, 4, 1, 2, 6), golem)[0])
        animating = [
            pair for pair in itertools.combinations(Ingredient, 2) if game.answer(GolemAnimate(*pair)).to_data()["animated"]
        ]
        assert animating == [game.golem_animators()]
