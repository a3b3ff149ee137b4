"""A whole game through the buttons and the shelf: every companion-app function of issue 5."""

from __future__ import annotations

import logging
import re

import pytest

from engine import (
    DebunkPair,
    DebunkPotion,
    DebunkSign,
    GolemAnimate,
    GolemTest,
    Ingredient,
    Level,
    Mix,
    Potion,
    Rules,
    Sell,
    parse_colour,
)
from firmware.screens.views import (
    ChoiceView,
    DebunkSignView,
    DebunkYesNoView,
    ExhibitionView,
    GameCodeView,
    GolemAnimationView,
    GolemTestView,
    HistoryView,
    HoldView,
    IngredientPickerView,
    LibraryAnswerView,
    LibraryOfferView,
    MenuView,
    MessageView,
    PotionView,
    RevealAllView,
    RevealAnimatorsView,
    RevealGolemView,
    RevealIngredientView,
    SaleView,
    ScanConfirmView,
    ScanPromptView,
)
from firmware.session import GameOptions
from tests.firmware.ui.helpers import Table

ALL_LANGUAGES = ("en", "ru", "pl", "sk")


def start(table: Table, *, golem: bool = False, master: bool = False, variant: bool = False) -> str:
    table.choose("menu.new_game")
    if variant:
        table.choose("newgame.rules")
    if master:
        table.choose("newgame.level")
    if golem:
        table.choose("newgame.golem")
    view = table.choose("menu.start")
    assert isinstance(view, GameCodeView)
    table.renders(ALL_LANGUAGES)
    table.press("ok")
    assert table.view.title == "menu.title"
    return view.code


def answer(table: Table, question: object) -> dict:
    game = table.session.game
    assert game is not None
    return game.answer(question).to_data()  # type: ignore[arg-type]


def test_no_game_menu_offers_new_restore_settings() -> None:
    table = Table()
    assert table.items() == ["menu.new_game", "menu.restore", "menu.settings"]
    table.press("back")
    assert isinstance(table.view, MenuView)


def test_new_golem_game_shows_its_code_until_ok_and_again_from_the_menu() -> None:
    table = Table()
    code = start(table, golem=True)
    game = table.session.game
    assert game is not None and game.code == code and len(code) == 5 and game.is_golem_game
    assert game.level is Level.APPRENTICE and game.rules is Rules.ALCHEMISTS
    assert table.items() == ["menu.experiment", "menu.sell", "menu.debunk", "menu.exhibition",
                             "menu.golem", "menu.library", "menu.history", "menu.reveal", "menu.game"]
    table.choose("menu.game")
    assert table.items() == ["menu.show_code", "menu.settings", "menu.new_game", "menu.restore"]
    view = table.choose("menu.show_code")
    assert view == GameCodeView(code)
    table.press("down", "up")
    assert table.view == GameCodeView(code)
    table.press("ok")
    assert isinstance(table.view, MenuView)


def test_base_game_menu_has_no_golem_functions() -> None:
    table = Table()
    code = start(table)
    assert len(code) == 4
    assert "menu.golem" not in table.items() and "menu.library" not in table.items()


def test_experiment_with_the_shelf_confirm_and_rescan() -> None:
    table = Table()
    start(table)
    assert table.ui.cards_wanted() == 0
    view = table.choose("menu.experiment")
    assert view == ScanPromptView(2, "nothing")
    assert table.ui.cards_wanted() == 2
    assert table.shelf("live", status="ok") == ScanPromptView(2, "reading")
    assert table.shelf("unsure") == ScanPromptView(2, "adjust")
    assert table.shelf("stable", "fern") == ScanPromptView(2, "more")  # one card held still
    assert table.shelf("live", status="ok") == ScanPromptView(2, "more")  # not "Reading…" for ever
    assert table.shelf("stable", "fern", "sage") == ScanPromptView(2, "adjust")  # an unnamed card
    assert table.shelf("unsure", status="face_down") == ScanPromptView(2, "turn")
    assert table.shelf("live", status="face_down") == ScanPromptView(2, "turn")
    assert table.shelf("stable", "fern", "fern") == ScanPromptView(2, "same")  # two copies: not a mix
    assert table.shelf("live", status="ok") == ScanPromptView(2, "same")
    assert table.shelf("stable", "fern", "toad") == ScanConfirmView(("fern", "toad"))
    table.renders(ALL_LANGUAGES)
    assert table.press("back") == ScanPromptView(2, "nothing")  # rescan
    table.shelf("stable", "root", "claw")
    view = table.press("ok")
    expected = answer(table, Mix(Ingredient.ROOT, Ingredient.CLAW))["potion"]
    assert view == PotionView(expected)
    table.renders(ALL_LANGUAGES)
    assert table.ui.cards_wanted() == 0
    table.press("ok")
    assert isinstance(table.view, MenuView)
    assert table.session.history()[-1] == {"time": table.session.history()[-1]["time"],
                                           "ask": "mix", "potion": expected}


def test_before_the_kit_has_learned_its_shelf_ok_on_the_prompt_captures_it() -> None:
    results = ["cards", "captured"]
    table = Table()
    table.context.capture_empty_shelf = lambda: results.pop(0)
    start(table)
    table.choose("menu.experiment")
    assert table.shelf("live", status="learning") == ScanPromptView(2, "learning")  # the keeper sees it empty
    assert table.shelf("live", status="unlearned") == ScanPromptView(2, "learn")
    table.renders(ALL_LANGUAGES)
    assert table.press("ok") == MessageView("shelf.cards", title="settings.shelf", error=True)
    assert table.press("ok") == ScanPromptView(2, "learn")   # a card was read on it: nothing captured
    assert table.press("ok") == ScanPromptView(2, "nothing") and not results
    assert table.shelf("live", status="unlearned") == ScanPromptView(2, "nothing")  # a frame read before
    assert table.shelf("live", status="empty") == ScanPromptView(2, "nothing")
    assert table.shelf("stable", "fern", "toad") == ScanConfirmView(("fern", "toad"))


def test_a_shelf_capture_failing_on_the_prompt_is_said_and_the_prompt_stays() -> None:
    table = Table()

    def fail() -> str:
        raise OSError("camera gone")

    table.context.capture_empty_shelf = fail
    start(table)
    table.choose("menu.experiment")
    table.shelf("live", status="unlearned")
    assert table.press("ok") == MessageView("shelf.no_camera", title="settings.shelf", error=True)
    assert table.press("back") == ScanPromptView(2, "learn")


def test_two_cards_of_one_kind_ask_for_two_different_ones_and_the_scan_goes_on() -> None:
    table = Table()
    start(table)
    table.choose("menu.experiment")
    assert table.shelf("stable", "toad", "toad") == ScanPromptView(2, "same")
    assert table.shelf("stable", "toad", "fern") == ScanConfirmView(("toad", "fern"))
    assert table.session.history() == []


def test_a_one_card_question_with_two_copies_on_the_shelf_asks_to_adjust() -> None:
    table = Table()
    start(table, golem=True)
    table.choose("menu.golem")
    table.choose("menu.golem_test")
    assert table.ui.cards_wanted() == 1
    assert table.shelf("stable", "toad", "toad") == ScanPromptView(1, "adjust")


def test_manual_choice_of_the_experiment_by_the_buttons() -> None:
    table = Table()
    start(table)
    table.choose("menu.experiment")
    view = table.press("ok")
    assert isinstance(view, IngredientPickerView) and view.title == "pick.first"
    assert table.ui.cards_wanted() == 0
    view = table.pick("scorpion")
    assert isinstance(view, IngredientPickerView) and view.chosen == ("scorpion",)
    assert view.title == "pick.second"
    table.press("ok")  # ok on the next one, highlighted after the first (toad)
    expected = answer(table, Mix(Ingredient.SCORPION, Ingredient.TOAD))["potion"]
    assert table.view == PotionView(expected)


def test_picker_back_unchooses_then_leaves() -> None:
    table = Table()
    start(table)
    table.choose("menu.experiment")
    table.press("ok")
    table.pick("claw")
    assert table.press("back").chosen == ()  # type: ignore[attr-defined]
    assert isinstance(table.press("back"), MenuView)


def test_sell_asks_for_the_ordered_potion_then_cards_then_quality() -> None:
    table = Table()
    start(table)
    view = table.choose("menu.sell")
    assert view == ChoiceView("potion", 0, (), "choose.potion")
    table.pick("B-")
    assert table.view == ScanPromptView(2, "nothing")
    table.shelf("stable", "mushroom", "flower")
    view = table.press("ok")
    expected = answer(table, Sell(Potion.BLUE_MINUS, Ingredient.MUSHROOM, Ingredient.FLOWER))
    assert view == SaleView(expected["quality"])
    table.renders(ALL_LANGUAGES)
    assert table.press("back") == table.ui.home_menu.view()


def test_exhibition_promised_potion_two_cards_success_or_failure() -> None:
    table = Table()
    start(table)
    table.choose("menu.exhibition")
    assert table.view.title == "choose.promised"  # type: ignore[attr-defined]
    table.pick("R+")
    table.shelf("stable", "fern", "claw")
    view = table.press("ok")
    game = table.session.game
    assert game is not None
    made = game.experiment(Ingredient.FERN, Ingredient.CLAW)
    assert view == ExhibitionView("R+", made is Potion.RED_PLUS)
    table.renders(ALL_LANGUAGES)


def test_apprentice_debunk_ingredient_and_colour_give_the_sign() -> None:
    table = Table()
    start(table)
    view = table.choose("menu.debunk")
    assert isinstance(view, IngredientPickerView) and view.title == "pick.ingredient"
    view = table.pick("toad")
    assert isinstance(view, ChoiceView) and view.kind == "colour"
    view = table.pick("G")
    expected = answer(table, DebunkSign(Ingredient.TOAD, parse_colour("G")))["sign"]
    assert view == DebunkSignView("G", expected)
    table.renders(ALL_LANGUAGES)


def test_master_debunk_two_ingredients_and_a_potion_give_yes_or_no() -> None:
    table = Table()
    start(table, master=True)
    table.choose("menu.debunk")
    view = table.pick("fern", "root")
    assert isinstance(view, ChoiceView) and view.resolved_options[-1] == "N"
    assert view.title == "choose.debunk_potion"
    # back returns to the second ingredient
    assert table.press("back").chosen == ("fern",)  # type: ignore[attr-defined]
    table.pick("root")
    view = table.pick("N")
    expected = answer(table, DebunkPair(Ingredient.FERN, Ingredient.ROOT, Potion.NEUTRAL))["makes"]
    assert view == DebunkYesNoView("N", expected)
    table.renders(ALL_LANGUAGES)


def test_level_changed_in_settings_changes_the_debunk() -> None:
    table = Table()
    start(table)
    table.choose("menu.game")
    table.choose("menu.settings")
    table.choose("settings.level")
    assert table.session.game is not None and table.session.game.level is Level.MASTER
    table.press("back", "back")
    table.choose("menu.debunk")
    assert table.view.title == "pick.first"  # type: ignore[attr-defined]


def test_variant_rules_debunk_shows_the_potion_of_the_pair() -> None:
    table = Table()
    start(table, variant=True)
    game = table.session.game
    assert game is not None and game.rules is Rules.ALCHYMISTI and not game.is_golem_game
    assert "menu.exhibition" not in table.items()
    table.choose("menu.debunk")
    view = table.pick("claw", "toad")
    expected = answer(table, DebunkPotion(Ingredient.CLAW, Ingredient.TOAD))["potion"]
    assert view == PotionView(expected, title="debunk.title")
    assert table.session.history()[-1]["ingredients"] == ["claw", "toad"]  # debunks are public


def test_variant_rules_keep_the_golem_off() -> None:
    table = Table()
    table.choose("menu.new_game")
    table.choose("newgame.rules")
    table.choose("newgame.golem")
    assert table.view.items[2].value == "value.off"  # type: ignore[attr-defined]


def test_golem_test_with_one_card_drawn_as_the_golem() -> None:
    table = Table()
    start(table, golem=True)
    table.choose("menu.golem")
    view = table.choose("menu.golem_test")
    assert view == ScanPromptView(1, "nothing") and table.ui.cards_wanted() == 1
    table.shelf("stable", "fern", "toad")
    assert table.view == ScanPromptView(1, "adjust")
    assert table.shelf("stable", "mushroom") == ScanConfirmView(("mushroom",))
    view = table.press("ok")
    expected = answer(table, GolemTest(Ingredient.MUSHROOM))
    assert view == GolemTestView(expected["chest"], expected["ears"])
    table.renders(ALL_LANGUAGES)


def test_golem_test_by_hand() -> None:
    table = Table()
    start(table, golem=True)
    table.choose("menu.golem")
    table.choose("menu.golem_test")
    table.press("ok")
    view = table.pick("flower")
    expected = answer(table, GolemTest(Ingredient.FLOWER))
    assert view == GolemTestView(expected["chest"], expected["ears"])


@pytest.mark.parametrize("right", [True, False])
def test_golem_animation_chosen_secretly(right: bool) -> None:
    table = Table()
    start(table, golem=True)
    game = table.session.game
    assert game is not None
    first, second = game.golem_animators()
    if not right:
        second = next(i for i in Ingredient if i not in (first, second))
    table.choose("menu.golem")
    view = table.choose("menu.golem_animate")
    assert isinstance(view, IngredientPickerView)
    view = table.pick(first.id, second.id)
    assert view == GolemAnimationView(right)
    assert answer(table, GolemAnimate(first, second))["animated"] is right
    table.renders(ALL_LANGUAGES)


def test_library_offers_four_and_answers_sun_or_moon() -> None:
    table = Table()
    start(table, golem=True)
    view = table.choose("menu.library")
    assert isinstance(view, LibraryOfferView) and len(view.ingredients) == 4
    table.renders(ALL_LANGUAGES)
    table.press("down")
    chosen = view.ingredients[1]
    result = table.press("ok")
    game = table.session.game
    assert game is not None
    assert result == LibraryAnswerView(game.library_class_of(Ingredient[chosen.upper()]).value)
    entries = table.session.history()
    assert [entry["ask"] for entry in entries] == ["library offer", "library"]
    assert all("class" not in entry for entry in entries)


def test_library_in_a_base_game_is_not_offered() -> None:
    table = Table()
    start(table)
    assert "menu.library" not in table.items()


def test_history_is_public_newest_first_and_scrolls() -> None:
    table = Table()
    start(table, golem=True)
    assert isinstance(table.choose("menu.history"), HistoryView)
    assert table.view.entries == ()  # type: ignore[attr-defined]
    table.renders(ALL_LANGUAGES)
    table.press("back")
    for pair in (("fern", "claw"), ("root", "toad"), ("flower", "feather")):
        table.choose("menu.experiment")
        table.shelf("stable", *pair)
        table.press("ok", "ok")
    table.choose("menu.golem")
    table.choose("menu.golem_test")
    table.shelf("stable", "scorpion")
    table.press("ok", "ok")
    table.choose("menu.library")
    table.press("ok", "ok")
    view = table.choose("menu.history")
    assert isinstance(view, HistoryView)
    assert [entry.kind for entry in view.entries] == ["golem_test", "potion", "potion", "potion"]
    assert all(entry.ingredient == "" for entry in view.entries)
    table.renders(ALL_LANGUAGES)
    assert table.press("down").top == 1  # type: ignore[attr-defined]
    for _ in range(6):
        table.press("down")
    assert table.view.top == 3  # type: ignore[attr-defined]
    assert table.press("up").top == 2  # type: ignore[attr-defined]
    assert isinstance(table.press("ok"), MenuView)


def hold_both(table: Table, seconds: float) -> None:
    table.button("ok", "press")
    table.tick(0.2)
    table.button("back", "press")
    for _ in range(int(seconds * 10)):
        table.tick(0.1)
        if not isinstance(table.view, HoldView):
            return


def test_reveal_needs_a_three_second_hold_and_a_confirm() -> None:
    table = Table()
    start(table, golem=True)
    view = table.choose("menu.reveal")
    assert view == HoldView(0.0)
    table.renders(ALL_LANGUAGES)
    hold_both(table, 1.5)
    assert isinstance(table.view, HoldView) and 0.4 < table.view.progress < 0.6
    table.renders()
    table.button("back", "release")  # let go too early: start again
    table.tick(0.5)
    assert table.view == HoldView(0.0)
    table.button("ok", "release")
    assert isinstance(table.view, HoldView)
    hold_both(table, 3.5)
    assert table.view.title == "confirm.title"  # type: ignore[attr-defined]
    table.renders(ALL_LANGUAGES)
    table.button("back", "hold")
    table.button("ok", "release")
    table.button("back", "release")
    assert table.view.title == "confirm.title"  # type: ignore[attr-defined]
    assert table.session.history() == []
    view = table.press("ok")
    game = table.session.game
    assert game is not None
    pages = [view]
    for _ in range(10):
        pages.append(table.press("ok"))
    assert [page.ingredient for page in pages[:8]] == [i.id for i in Ingredient]  # type: ignore[attr-defined]
    for page, ingredient in zip(pages[:8], Ingredient):
        assert page == RevealIngredientView(ingredient.id, game.alchemical_of(ingredient).notation,
                                            ingredient + 1, 11)
    assert isinstance(pages[8], RevealGolemView) and pages[8].page == 9
    assert isinstance(pages[9], RevealAnimatorsView)
    assert set(pages[9].pair) == {i.id for i in game.golem_animators()}
    assert pages[10] == RevealAllView(tuple(game.alchemical_of(i).notation for i in Ingredient), 11, 11)
    for page in pages:
        table.ui.stack[-1].page = pages.index(page)  # type: ignore[attr-defined]
        table.renders(ALL_LANGUAGES)
    assert table.press("back").page == 10  # type: ignore[attr-defined]
    table.press("down")
    assert isinstance(table.press("ok"), MenuView)
    assert table.session.history()[-1]["ask"] == "reveal"


def test_reveal_refused_by_back_alone_or_on_the_confirm() -> None:
    table = Table()
    start(table)
    table.choose("menu.reveal")
    assert isinstance(table.press("back"), MenuView)
    table.choose("menu.reveal")
    hold_both(table, 3.2)
    table.button("ok", "release")
    table.button("back", "release")
    assert isinstance(table.press("back"), MenuView)
    assert table.session.history() == []


def test_a_base_game_reveal_has_eight_pages_and_all_eight_last() -> None:
    table = Table()
    start(table)
    table.choose("menu.reveal")
    hold_both(table, 3.2)
    table.button("ok", "release")
    table.button("back", "release")
    view = table.press("ok")
    assert view.pages == 9  # type: ignore[attr-defined]
    for _ in range(8):
        view = table.press("ok")
    assert isinstance(view, RevealAllView) and view.page == 9


def test_nothing_secret_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    table = Table()
    code = start(table, golem=True)
    table.choose("menu.experiment")
    table.shelf("stable", "fern", "toad")
    table.press("ok", "ok")
    table.choose("menu.golem")
    table.choose("menu.golem_animate")
    table.pick("root", "claw")
    table.press("ok")
    table.choose("menu.game")
    table.choose("menu.show_code")
    table.press("ok")
    assert not re.search(rf"\b{code}\b", caplog.text)
    text = caplog.text.lower()
    for ingredient in Ingredient:
        assert ingredient.id not in text
    assert "experiment" in text


def test_each_settled_shelf_is_logged_by_how_many_cards_never_which(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="firmware.ui.app")
    table = Table()
    start(table)
    table.choose("menu.experiment")
    table.shelf("live", status="ok")
    table.shelf("stable", "fern", "toad")
    table.shelf("unsure", status="face_down")
    table.shelf("unsure")
    table.shelf("cleared")
    shelf_lines = [record.getMessage() for record in caplog.records
                   if record.getMessage().startswith("shelf: ")]
    assert shelf_lines == ["shelf: 2 cards read", "shelf: unsure (face down)", "shelf: unsure",
                           "shelf: cleared"]  # the live frame is not a settled shelf


def test_default_options_apply_to_a_new_game() -> None:
    table = Table()
    table.context.default_options = GameOptions(Rules.ALCHEMISTS, Level.MASTER, True)
    table.choose("menu.new_game")
    labels = [item.value for item in table.view.items]  # type: ignore[attr-defined]
    assert labels[1:3] == ["level.master", "value.on"]


def test_back_on_the_scan_prompt_goes_back_a_step() -> None:
    table = Table()
    start(table)
    table.choose("menu.sell")
    table.pick("B-")
    view = table.press("back")
    assert isinstance(view, ChoiceView) and view.title == "choose.potion"
    table.press("back")
    assert isinstance(table.view, MenuView)


def test_cards_left_from_the_previous_action_are_shown_as_such_until_the_shelf_is_cleared() -> None:
    table = Table()
    start(table)
    table.choose("menu.experiment")
    table.shelf("stable", "fern", "toad")
    table.press("ok", "ok")
    table.choose("menu.experiment")
    # the camera announces the cards again at a new scan: the same cards, never taken away
    assert table.shelf("stable", "toad", "fern") == ScanConfirmView(("toad", "fern"), again=True)
    table.renders(ALL_LANGUAGES)
    assert table.press("back") == ScanPromptView(2, "nothing")
    table.shelf("cleared")
    assert table.shelf("stable", "fern", "toad") == ScanConfirmView(("fern", "toad"))  # laid anew
    table.press("ok", "ok")
    table.choose("menu.experiment")
    assert table.shelf("stable", "root", "claw") == ScanConfirmView(("root", "claw"))  # other cards
