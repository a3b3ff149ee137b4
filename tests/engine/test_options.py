"""The engine enforces the game's options: the debunk of each level and rules, Alchymisti without
exhibition or golem, the library's offer, and the order in which a question's problems are named."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import (
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
    Mix,
    OptionError,
    Potion,
    Question,
    Reveal,
    Rules,
    Sell,
    parse_question,
)

FERN, TOAD = Ingredient.FERN, Ingredient.TOAD
EVERY_QUESTION: list[Question] = [
    Mix(FERN, TOAD), Sell(Potion.RED_PLUS, FERN, TOAD), DebunkSign(FERN, Colour.R),
    DebunkPair(FERN, TOAD, Potion.NEUTRAL), DebunkPotion(FERN, TOAD), Exhibit(Potion.BLUE_MINUS, FERN, TOAD),
    GolemTest(FERN), GolemAnimate(FERN, TOAD), LibraryOffer(), LibraryAnswer(FERN), Reveal(),
]
OPTIONS = list(itertools.product(Rules, Level, (False, True)))


def golem_code(seed: int = 1) -> str:
    return Game.new(golem=True, rng=random.Random(seed)).code


def game_with(rules: Rules, level: Level, golem: bool) -> Game:
    if golem and rules is Rules.ALCHEMISTS:
        return Game.from_code(golem_code(), level, rules)
    return Game.from_code("DEMO", level, rules)


def allowed(question: Question, rules: Rules, level: Level, golem: bool) -> bool:
    """The rules digest as a table: RULES.md §4 (debunk by level), §5 (golem), §6 (Alchymisti)."""
    if rules is Rules.ALCHYMISTI:
        return isinstance(question, (Mix, Sell, DebunkPotion, Reveal))
    if isinstance(question, (GolemTest, GolemAnimate, LibraryOffer, LibraryAnswer)):
        return golem
    if isinstance(question, DebunkSign):
        return level is Level.APPRENTICE
    if isinstance(question, DebunkPair):
        return level is Level.MASTER
    return not isinstance(question, DebunkPotion)


@pytest.mark.parametrize("rules, level, golem", OPTIONS)
def test_every_question_is_answered_or_refused_as_the_options_say(rules: Rules, level: Level, golem: bool) -> None:
    game = game_with(rules, level, golem)
    for question in EVERY_QUESTION:
        if allowed(question, rules, level, golem and rules is Rules.ALCHEMISTS):
            game.answer(question).to_data()
            continue
        with pytest.raises(IllegalQuestionError) as caught:
            game.answer(question).to_data()
        error = caught.value
        assert error.kind in ("not_in_rules", "not_at_level", "no_golem"), (question, error)
        if isinstance(error, OptionError):  # the message names the option and its value
            assert f"{error.option} {getattr(game, error.option).value}" in error.message \
                or f"{getattr(game, error.option).value} {error.option}" in error.message, error.message
            assert error.allowing != getattr(game, error.option).value
        else:
            assert game.code in error.message


@pytest.mark.parametrize("level, form, other", [
    (Level.APPRENTICE, DebunkPair(FERN, TOAD, Potion.RED_PLUS), "debunk ING COLOUR"),
    (Level.MASTER, DebunkSign(FERN, Colour.R), "debunk ING ING POTION"),
])
def test_a_debunk_of_the_other_level_names_the_level_and_its_own_debunk(level: Level, form: Question, other: str) -> None:
    game = Game.from_code("DEMO", level)
    with pytest.raises(OptionError) as caught:
        game.ask(form).to_data()
    assert (caught.value.kind, caught.value.option) == ("not_at_level", "level")
    assert f"level {level.value}" in caught.value.message and other in caught.value.message
    assert game.log == []


def test_the_master_debunk_says_yes_or_no_only_and_never_the_potion() -> None:
    game = Game.from_code("DEMO", Level.MASTER)
    with pytest.raises(OptionError) as caught:
        game.ask(DebunkPotion(Ingredient.MUSHROOM, TOAD)).to_data()
    assert caught.value.kind == "not_in_rules" and "alchymisti" in caught.value.message
    assert game.ask(DebunkPair(Ingredient.MUSHROOM, TOAD, Potion.RED_PLUS)).to_data() == {"makes": True}


@pytest.mark.parametrize("question", [Exhibit(Potion.RED_PLUS, FERN, TOAD), GolemTest(FERN), LibraryOffer(),
                                      DebunkSign(FERN, Colour.G), DebunkPair(FERN, TOAD, Potion.NEUTRAL)])
def test_alchymisti_has_no_exhibition_no_golem_and_its_own_debunk(question: Question) -> None:
    game = Game.from_code("DEMO", rules=Rules.ALCHYMISTI)
    with pytest.raises(OptionError) as caught:
        game.ask(question).to_data()
    assert caught.value.kind == "not_in_rules" and "alchymisti rules" in caught.value.message
    assert (caught.value.option, caught.value.allowing) == ("rules", "alchemists")
    assert game.log == []


def test_no_golem_game_under_the_alchymisti_rules() -> None:
    with pytest.raises(OptionError) as caught:
        Game.new(golem=True, rules=Rules.ALCHYMISTI)
    assert caught.value.kind == "not_in_rules" and "alchymisti rules have no golem" in caught.value.message
    with pytest.raises(OptionError):
        Game.from_code(golem_code(), rules=Rules.ALCHYMISTI)
    assert Game.from_code("DEMO", rules=Rules.ALCHYMISTI).rules is Rules.ALCHYMISTI


def test_a_saved_golem_game_under_alchymisti_rules_still_resumes_but_asks_no_golem_question() -> None:
    # saved by this version (schema 2, an official code) and by the previous one (schema 1, its own code)
    for schema, code in ((2, golem_code()), (1, "IPTEY")):
        saved = {"schema": schema, "code": code, "level": "master", "rules": "alchymisti", "log": []}
        game = Game.from_data(saved)
        assert (game.code, game.rules, game.is_golem_game) == (code, Rules.ALCHYMISTI, True)
        with pytest.raises(OptionError):
            game.ask(GolemTest(FERN))


def test_the_library_answers_once_for_one_of_the_offered_ingredients() -> None:
    game = Game.from_code(golem_code())
    with pytest.raises(IllegalQuestionError) as caught:
        game.ask(LibraryAnswer(FERN)).to_data()
    assert caught.value.kind == "no_library_offer" and "library offer" in caught.value.message
    offered = game.ask(LibraryOffer()).to_data()["ingredients"]
    assert isinstance(offered, list)
    refused = next(ingredient for ingredient in Ingredient if ingredient.id not in offered)
    with pytest.raises(IllegalQuestionError) as caught:
        game.ask(LibraryAnswer(refused)).to_data()
    assert caught.value.kind == "not_offered" and refused.id in caught.value.message
    assert all(name in caught.value.message for name in offered)
    game.ask(Mix(FERN, TOAD)).to_data()  # another question between the offer and the choice keeps the offer
    chosen = Ingredient[str(offered[3]).upper()]
    assert game.ask(LibraryAnswer(chosen)).to_data()["class"] in ("sun", "moon")
    with pytest.raises(IllegalQuestionError) as caught:
        game.ask(LibraryAnswer(chosen)).to_data()  # one choice per offer
    assert caught.value.kind == "no_library_offer"
    assert [entry.question.kind for entry in game.log] == ["library offer", "mix", "library"]
    restored = Game.from_data(game.to_data())
    assert restored.library_offer() is None
    restored.ask(LibraryOffer()).to_data()
    assert Game.from_data(restored.to_data()).library_offer() == restored.library_offer()


def test_the_stateless_answer_gives_the_library_class_of_any_ingredient() -> None:
    game = Game.from_code(golem_code())
    assert {game.answer(LibraryAnswer(ingredient)).to_data()["class"] for ingredient in Ingredient} == {"sun", "moon"}
    assert game.log == []


# -- two problems at once: the more basic one is named ---------------------------------------------

@pytest.mark.parametrize("line, rules, level, kind", [
    ("golem animate fern fern", Rules.ALCHEMISTS, Level.MASTER, "no_golem"),
    ("golem animate fern dragon", Rules.ALCHEMISTS, Level.MASTER, "no_golem"),
    ("golem test", Rules.ALCHEMISTS, Level.MASTER, "no_golem"),
    ("library dragon", Rules.ALCHEMISTS, Level.MASTER, "no_golem"),
    ("golem animate fern fern", Rules.ALCHYMISTI, Level.MASTER, "not_in_rules"),
    ("exhibit N fern fern", Rules.ALCHYMISTI, Level.MASTER, "not_in_rules"),
    ("exhibit R+ fern", Rules.ALCHYMISTI, Level.MASTER, "not_in_rules"),
    ("debunk fern fern N", Rules.ALCHEMISTS, Level.APPRENTICE, "not_at_level"),
    ("debunk fern fern Q", Rules.ALCHEMISTS, Level.APPRENTICE, "not_at_level"),
    ("debunk fern fern", Rules.ALCHEMISTS, Level.MASTER, "not_in_rules"),
    ("debunk dragon R", Rules.ALCHEMISTS, Level.MASTER, "not_at_level"),
    ("sell N fern fern", Rules.ALCHEMISTS, Level.MASTER, "neutral_potion"),
    ("exhibit N toad toad", Rules.ALCHEMISTS, Level.MASTER, "neutral_potion"),
    ("sell N fern dragon", Rules.ALCHEMISTS, Level.MASTER, "unknown_ingredient"),
    ("mix fern", Rules.ALCHEMISTS, Level.MASTER, "bad_command"),
    ("debunk fern Q", Rules.ALCHEMISTS, Level.APPRENTICE, "unknown_colour"),
    ("debunk fern Q", Rules.ALCHYMISTI, Level.APPRENTICE, "unknown_ingredient"),
    ("debunk fern", Rules.ALCHEMISTS, Level.MASTER, "bad_command"),
])
def test_a_question_wrong_in_two_ways_names_the_more_basic_problem(line: str, rules: Rules, level: Level, kind: str) -> None:
    """Unknown command, then the game's options (rules, golem, level), then the number of words,
    then each word in order, then what the rules say of the arguments."""
    game = Game.from_code("DEMO", level, rules)
    with pytest.raises(LabkitError) as caught:
        game.ask(parse_question(line.split(), game)).to_data()
    assert caught.value.kind == kind, caught.value.message
    assert game.log == []


def test_the_debunk_error_of_a_form_names_that_form() -> None:
    with pytest.raises(LabkitError) as caught:
        parse_question(["debunk", "fern"], Game.from_code("DEMO", Level.MASTER))
    assert "debunk ING ING POTION" in caught.value.message


# -- typed answers: each question names its answer class; JSON only at the edges -----------------

def test_each_question_is_answered_by_the_frozen_value_it_names() -> None:
    import dataclasses
    import json

    from engine import (
        AnimationResult, AspectSign, ExhibitionResult, GolemTestResult, LibraryOffered, LibraryVerdict,
        PairVerdict, PotionMade, SaleResult, Solution,
    )

    named = {Mix: PotionMade, Sell: SaleResult, DebunkSign: AspectSign, DebunkPair: PairVerdict,
             DebunkPotion: PotionMade, Exhibit: ExhibitionResult, GolemTest: GolemTestResult,
             GolemAnimate: AnimationResult, LibraryOffer: LibraryOffered, LibraryAnswer: LibraryVerdict,
             Reveal: Solution}
    answered = set()
    for rules, level, golem in OPTIONS:
        game = game_with(rules, level, golem)
        for question in EVERY_QUESTION:
            if not allowed(question, rules, level, golem and rules is Rules.ALCHEMISTS):
                continue
            reply = game.answer(question)
            assert type(reply) is named[type(question)], (question, reply)
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(reply, dataclasses.fields(reply)[0].name, None)
            assert json.loads(json.dumps(reply.to_data())) == reply.to_data()
            answered.add(type(question))
    assert answered == set(named)
