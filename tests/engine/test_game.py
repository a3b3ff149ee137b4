"""The game: answers to every question, its errors, and its log."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    ALCHEMICALS,
    GOLEMS,
    Colour,
    DebunkPair,
    DebunkPotion,
    DebunkSign,
    Exhibit,
    Game,
    GolemAnimate,
    GolemTest,
    IllegalQuestionError,
    Ingredient,
    LabkitError,
    Level,
    LibraryAnswer,
    LibraryOffer,
    LogFormatError,
    Mix,
    Potion,
    Reveal,
    Rules,
    Sell,
    library_class,
    mix,
    question_from_data,
)
from engine.codes import codes_to_hand_out
from engine.game import LogEntry

DEMO = Game.from_code("DEMO")
APPRENTICE = Game.from_code("DEMO", Level.APPRENTICE)
VARIANT = Game.from_code("DEMO", rules=Rules.ALCHYMISTI)
INGREDIENT_PAIRS = list(itertools.permutations(Ingredient, 2))
SIGNED = [p for p in Potion if p is not Potion.NEUTRAL]


def golem_game(index: int = 5) -> Game:
    """The tutorial's assignment with golem ``index``, from an official King's Golem code."""
    return Game.from_code(codes_to_hand_out(DEMO.permutation, GOLEMS[index])[0])


def test_demo_assignment_as_the_tutorial_plays_it() -> None:
    assert DEMO.alchemical_of(Ingredient.MUSHROOM).notation == "Ppn"
    assert DEMO.answer(Mix(Ingredient.MUSHROOM, Ingredient.TOAD)).to_data() == {"potion": "R+"}


@pytest.mark.parametrize("first, second", INGREDIENT_PAIRS)
def test_experiment_matches_the_mixing_rule(first: Ingredient, second: Ingredient) -> None:
    expected = mix(DEMO.alchemical_of(first), DEMO.alchemical_of(second))
    assert DEMO.answer(Mix(first, second)).to_data() == {"potion": expected.value}


def test_sale_qualities() -> None:
    by_potion = {DEMO.experiment(a, b): (a, b) for a, b in INGREDIENT_PAIRS}
    a, b = by_potion[Potion.RED_PLUS]
    assert DEMO.answer(Sell(Potion.RED_PLUS, a, b)).to_data() == {"quality": "exact"}
    assert DEMO.answer(Sell(Potion.BLUE_PLUS, a, b)).to_data() == {"quality": "sign"}
    assert DEMO.answer(Sell(Potion.GREEN_MINUS, a, b)).to_data() == {"quality": "wrong"}
    n1, n2 = by_potion[Potion.NEUTRAL]
    assert DEMO.answer(Sell(Potion.GREEN_MINUS, n1, n2)).to_data() == {"quality": "neutral"}


@given(st.sampled_from(list(Ingredient)), st.sampled_from(list(Colour)))
def test_apprentice_debunk_gives_the_sign(ingredient: Ingredient, colour: Colour) -> None:
    sign = DEMO.alchemical_of(ingredient).aspect(colour).sign
    assert APPRENTICE.answer(DebunkSign(ingredient, colour)).to_data() == {"sign": "+" if sign > 0 else "-"}


@given(st.sampled_from(INGREDIENT_PAIRS), st.sampled_from(list(Potion)))
def test_master_debunk_and_exhibition(pair: tuple[Ingredient, Ingredient], potion: Potion) -> None:
    made = DEMO.experiment(*pair)
    assert DEMO.answer(DebunkPair(*pair, potion)).to_data() == {"makes": made is potion}
    assert VARIANT.answer(DebunkPotion(*pair)).to_data() == {"potion": made.value}
    if potion is not Potion.NEUTRAL:
        assert DEMO.answer(Exhibit(potion, *pair)).to_data() == {"success": made is potion}


@pytest.mark.parametrize("index", range(24))
def test_golem_test_and_library(index: int) -> None:
    game = golem_game(index)
    golem = GOLEMS[index]
    assert game.golem == golem
    for ingredient in Ingredient:
        alchemical = game.alchemical_of(ingredient)
        chest, ears = golem.reaction_to(alchemical)
        assert game.answer(GolemTest(ingredient)).to_data() == {"chest": chest, "ears": ears}
        assert game.answer(LibraryAnswer(ingredient)).to_data() == {"class": library_class(alchemical).value}


def test_library_offers_four_distinct_ingredients() -> None:
    game = golem_game()
    for _ in range(50):
        offer = game.answer(LibraryOffer()).to_data()["ingredients"]
        assert isinstance(offer, list) and len(set(offer)) == 4


def test_reveal_shows_everything_and_the_golem() -> None:
    game = golem_game(0)
    reveal = game.reveal().to_data()
    assert reveal["ingredients"] == {i.id: game.alchemical_of(i).notation for i in Ingredient}
    assert sorted(reveal["ingredients"].values()) == sorted(a.notation for a in ALCHEMICALS)  # type: ignore[union-attr]
    golem = reveal["golem"]
    assert isinstance(golem, dict)
    assert golem["chest"] == {"colour": "R", "size": "large"}
    assert golem["ears"] == {"colour": "G", "size": "large"}
    first, second = golem["animate"]
    assert game.answer(GolemAnimate(Ingredient[first.upper()], Ingredient[second.upper()])).to_data() == {"animated": True}
    assert DEMO.reveal().to_data()["golem"] is None


@pytest.mark.parametrize(
    "question",
    [Mix(Ingredient.FERN, Ingredient.FERN), Sell(Potion.RED_PLUS, Ingredient.TOAD, Ingredient.TOAD),
     DebunkPair(Ingredient.ROOT, Ingredient.ROOT, Potion.NEUTRAL), Exhibit(Potion.BLUE_MINUS, Ingredient.CLAW, Ingredient.CLAW),
     GolemAnimate(Ingredient.FLOWER, Ingredient.FLOWER)],
)
def test_an_ingredient_cannot_be_mixed_with_itself(question) -> None:
    game = golem_game()
    with pytest.raises(IllegalQuestionError) as caught:
        game.ask(question).to_data()
    assert caught.value.kind == "same_ingredient"
    assert "cannot be mixed" in str(caught.value)
    assert game.log == []


@pytest.mark.parametrize("question", [GolemTest(Ingredient.FERN), GolemAnimate(Ingredient.FERN, Ingredient.TOAD),
                                      LibraryAnswer(Ingredient.FERN), LibraryOffer()])
def test_golem_questions_in_a_base_game_are_refused(question) -> None:
    game = Game.from_code("DEMO")
    with pytest.raises(IllegalQuestionError) as caught:
        game.ask(question).to_data()
    assert caught.value.kind == "no_golem"
    assert "DEMO" in str(caught.value)
    assert game.log == []


@pytest.mark.parametrize("question", [Sell(Potion.NEUTRAL, Ingredient.FERN, Ingredient.TOAD),
                                      Exhibit(Potion.NEUTRAL, Ingredient.FERN, Ingredient.TOAD)])
def test_the_neutral_potion_cannot_be_ordered_or_promised(question) -> None:
    with pytest.raises(IllegalQuestionError) as caught:
        DEMO.answer(question).to_data()
    assert caught.value.kind == "neutral_potion"


def test_new_game_options() -> None:
    game = Game.new(golem=True, level=Level.APPRENTICE)
    assert game.is_golem_game and len(game.code) == 5
    assert (game.level, game.rules) == (Level.APPRENTICE, Rules.ALCHEMISTS)
    variant = Game.new(level=Level.MASTER, rules=Rules.ALCHYMISTI)
    assert (variant.level, variant.rules, variant.is_golem_game) == (Level.MASTER, Rules.ALCHYMISTI, False)
    restored = Game.from_code(game.code)
    assert (restored.permutation, restored.golem) == (game.permutation, game.golem)


def test_the_log_records_every_question_with_time_and_round_trips_through_json() -> None:
    ticks = iter(range(100))
    game = golem_game()
    game.clock = lambda: float(next(ticks))
    questions = [Mix(Ingredient.FERN, Ingredient.TOAD), Sell(Potion.RED_MINUS, Ingredient.ROOT, Ingredient.CLAW),
                 DebunkPair(Ingredient.FERN, Ingredient.CLAW, Potion.NEUTRAL),
                 Exhibit(Potion.BLUE_PLUS, Ingredient.TOAD, Ingredient.ROOT),
                 GolemTest(Ingredient.SCORPION), GolemAnimate(Ingredient.FERN, Ingredient.FLOWER), LibraryOffer()]
    answers = [game.ask(question).to_data() for question in questions]
    game.level = Level.APPRENTICE  # the level may change during a game; the log keeps both debunks
    offered = game.library_offer()
    assert offered is not None
    questions += [DebunkSign(Ingredient.FEATHER, Colour.G), LibraryAnswer(offered[2]), Reveal()]
    answers += [game.ask(question).to_data() for question in questions[-3:]]
    assert [entry.question for entry in game.log] == questions
    assert [entry.answer for entry in game.log] == answers
    assert [entry.time for entry in game.log] == [float(t) for t in range(len(questions))]
    restored = Game.from_data(json.loads(json.dumps(game.to_data())))
    assert restored.code == game.code and restored.log == game.log
    for question in [*questions, DebunkPotion(Ingredient.FERN, Ingredient.ROOT)]:
        assert question_from_data(question.to_data()) == question


def test_public_history_never_names_private_ingredients_nor_secret_answers() -> None:
    game = golem_game()
    game.level = Level.APPRENTICE
    game.ask(Mix(Ingredient.FERN, Ingredient.TOAD)).to_data()
    game.ask(GolemTest(Ingredient.SCORPION)).to_data()
    game.ask(LibraryOffer()).to_data()
    offered = game.library_offer()
    assert offered is not None
    game.ask(LibraryAnswer(offered[0])).to_data()
    game.ask(DebunkSign(Ingredient.FEATHER, Colour.G)).to_data()
    game.ask(Reveal()).to_data()
    public = [entry.public_data() for entry in game.log]
    assert "ingredients" not in public[0] and "potion" in public[0]
    assert "ingredients" not in public[1] and set(public[1]) >= {"chest", "ears"}
    assert public[2] == {"time": public[2]["time"], "ask": "library offer"}
    assert public[3] == {"time": public[3]["time"], "ask": "library"}
    assert public[4]["ingredients"] == ["feather"]  # a debunk is shown to everyone
    assert set(public[5]) == {"time", "ask"}


@pytest.mark.parametrize(
    "data, fragment",
    [
        ({"schema": 3, "code": "AAAA"}, "schema version 3"),
        ({"schema": 1, "code": 5, "level": "master", "rules": "alchemists", "log": []}, "needs text fields"),
        ({"schema": 1, "code": "AAAA", "level": "master", "rules": "alchemists", "log": {}}, "needs a list"),
        ({"schema": 1, "code": "AAAA", "level": "master", "rules": "alchemists", "log": [3]}, "must be a mapping"),
        ({"schema": 1, "code": "AAAA", "level": "master", "rules": "alchemists",
          "log": [{"time": 0, "question": {"ask": "brew"}, "answer": {}}]}, "unknown kind 'brew'"),
        ({"schema": 1, "code": "AAAA", "level": "master", "rules": "alchemists",
          "log": [{"time": 0, "question": {"ask": "mix", "ingredients": ["fern"]}, "answer": {}}]}, "2 ingredient ids"),
    ],
)
def test_damaged_saved_games_are_refused(data: dict[str, object], fragment: str) -> None:
    with pytest.raises(LogFormatError) as caught:
        Game.from_data(data)
    assert fragment in str(caught.value)
    assert caught.value.kind == "bad_saved_game"


def played_golem_game() -> Game:
    """A golem game whose log holds every kind of question, the level changed half way."""
    game = golem_game()
    for question in [Mix(Ingredient.FERN, Ingredient.TOAD), Sell(Potion.RED_MINUS, Ingredient.ROOT, Ingredient.CLAW),
                     DebunkPair(Ingredient.FERN, Ingredient.CLAW, Potion.NEUTRAL),
                     Exhibit(Potion.BLUE_PLUS, Ingredient.TOAD, Ingredient.ROOT),
                     GolemTest(Ingredient.SCORPION), GolemAnimate(Ingredient.FERN, Ingredient.FLOWER), LibraryOffer()]:
        game.ask(question)
    game.level = Level.APPRENTICE
    offered = game.library_offer()
    assert offered is not None
    for later in [DebunkSign(Ingredient.FEATHER, Colour.G), LibraryAnswer(offered[1]), Reveal()]:
        game.ask(later)
    return game


def test_a_replayed_log_is_the_log_as_asked_across_a_level_change() -> None:
    game = played_golem_game()
    assert [game.replayed(entry) for entry in game.log] == game.log


def test_replaying_an_altered_answer_gives_the_answer_of_the_code() -> None:
    game = played_golem_game()
    for entry in game.log:
        if isinstance(entry.question, LibraryOffer):
            continue
        altered = LogEntry(entry.time, entry.question, {key: "altered" for key in entry.answer})
        assert game.replayed(altered) == entry


@pytest.mark.parametrize(
    "entry",
    [
        LogEntry(0.0, GolemTest(Ingredient.FERN), {"chest": True, "ears": False}),
        LogEntry(0.0, DebunkPotion(Ingredient.FERN, Ingredient.TOAD), {"potion": "R+"}),
        LogEntry(0.0, LibraryOffer(), {"ingredients": ["fern", "toad", "claw", "fern"]}),
        LogEntry(0.0, LibraryOffer(), {"ingredients": ["fern", "toad", "claw"]}),
        LogEntry(0.0, LibraryOffer(), {"ingredients": ["fern", "toad", "claw", "sage"]}),
        LogEntry(0.0, LibraryOffer(), {}),
    ],
)
def test_an_entry_the_game_could_not_have_recorded_is_refused_on_replay(entry: LogEntry) -> None:
    game = DEMO if isinstance(entry.question, (GolemTest, DebunkPotion)) else golem_game()
    with pytest.raises(LabkitError):
        game.replayed(entry)


def test_a_library_offer_is_kept_as_drawn() -> None:
    game = golem_game()
    entry = LogEntry(2.0, LibraryOffer(), {"ingredients": ["fern", "toad", "claw", "root"]})
    assert game.replayed(entry) is entry
