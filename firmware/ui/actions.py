"""The game actions: experiment, sell, debunk, exhibition, golem test and animation, library.

Each starts a flow on the UI: choices with the buttons, cards on the shelf (or the manual choice),
then the result. Results never name the ingredients that made them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import (
    DebunkPair,
    DebunkPotion,
    DebunkSign,
    Exhibit,
    GolemAnimate,
    GolemTest,
    Level,
    LibraryAnswer,
    LibraryOffer,
    Mix,
    Rules,
    Sell,
    parse_colour,
    parse_ingredient,
    parse_potion,
)
from engine.alchemy import POTION_WORDS as POTIONS
from firmware.screens.views import (
    DebunkSignView,
    DebunkYesNoView,
    ExhibitionView,
    GolemAnimationView,
    GolemTestView,
    LibraryAnswerView,
    LibraryOfferView,
    PotionView,
    SaleView,
)
from firmware.ui.steps import ChoiceStep, Done, PickStep, ScanStep, Step

if TYPE_CHECKING:
    from firmware.ui.host import Host


def cards(ui: Host, count: int, done: Done) -> Step:
    """Read ``count`` cards from the shelf, or choose them by hand when the camera is out."""
    if ui.camera_fault:
        return PickStep(ui, count, done)
    return ScanStep(ui, count, done)


def experiment(ui: Host) -> None:
    """Test on a student or drink it: two cards, the potion large for the table."""
    def done(pair: tuple[str, ...]) -> None:
        reply = ui.ask(Mix(*map(parse_ingredient, pair)))
        if reply is not None:
            ui.show_result(PotionView(reply.potion.value))

    ui.log_action("experiment")
    ui.push(cards(ui, 2, done))


def sell(ui: Host) -> None:
    """Sell: the ordered potion, two cards, the quality level large."""
    def ordered(potion: str) -> None:
        def done(pair: tuple[str, ...]) -> None:
            reply = ui.ask(Sell(parse_potion(potion), *map(parse_ingredient, pair)))
            if reply is not None:
                ui.show_result(SaleView(reply.quality.value))

        ui.push(cards(ui, 2, done))

    ui.log_action("sell")
    ui.push(ChoiceStep(ui, "potion", "choose.potion", ordered))


def exhibition(ui: Host) -> None:
    """Exhibition: the promised potion, two cards, success or failure."""
    def promised(potion: str) -> None:
        def done(pair: tuple[str, ...]) -> None:
            reply = ui.ask(Exhibit(parse_potion(potion), *map(parse_ingredient, pair)))
            if reply is not None:
                ui.show_result(ExhibitionView(potion, reply.success))

        ui.push(cards(ui, 2, done))

    ui.log_action("exhibition")
    ui.push(ChoiceStep(ui, "potion", "choose.promised", promised))


def debunk(ui: Host) -> None:
    """Debunk, publicly: by level, or the potion of a pair in the variant rules."""
    game = ui.session.require_game()
    ui.log_action("debunk")
    if game.rules is Rules.ALCHYMISTI:
        ui.push(PickStep(ui, 2, lambda pair: _debunk_potion(ui, pair), private=False))
    elif game.level is Level.MASTER:
        ui.push(PickStep(ui, 2, lambda pair: ui.push(ChoiceStep(
            ui, "potion", "choose.debunk_potion", lambda potion: _debunk_pair(ui, pair, potion), POTIONS)),
            private=False))
    else:
        ui.push(PickStep(ui, 1, lambda chosen: ui.push(ChoiceStep(
            ui, "colour", "choose.colour", lambda colour: _debunk_sign(ui, chosen[0], colour))),
            private=False))


def _debunk_potion(ui: Host, pair: tuple[str, ...]) -> None:
    """The variant's debunk: the potion of a pair, shown to everyone."""
    reply = ui.ask(DebunkPotion(*map(parse_ingredient, pair)))
    if reply is not None:
        ui.show_result(PotionView(reply.potion.value, title="debunk.title"))


def _debunk_pair(ui: Host, pair: tuple[str, ...], potion: str) -> None:
    """The master's debunk: does the pair make the potion? yes or no."""
    first, second = map(parse_ingredient, pair)
    reply = ui.ask(DebunkPair(first, second, parse_potion(potion)))
    if reply is not None:
        ui.show_result(DebunkYesNoView(potion, reply.makes))


def _debunk_sign(ui: Host, ingredient: str, colour: str) -> None:
    """The apprentice's debunk: the sign of one aspect of one ingredient."""
    reply = ui.ask(DebunkSign(parse_ingredient(ingredient), parse_colour(colour)))
    if reply is not None:
        ui.show_result(DebunkSignView(colour, "+" if reply.sign > 0 else "-"))


def golem_test(ui: Host) -> None:
    """Golem test: one card; the chest and the ears, drawn as the golem."""
    def done(chosen: tuple[str, ...]) -> None:
        reply = ui.ask(GolemTest(parse_ingredient(chosen[0])))
        if reply is not None:
            ui.show_result(GolemTestView(reply.chest, reply.ears))

    ui.log_action("golem test")
    ui.push(cards(ui, 1, done))


def golem_animate(ui: Host) -> None:
    """Animate the golem: two ingredients chosen secretly with the buttons; alive or not."""
    def done(pair: tuple[str, ...]) -> None:
        reply = ui.ask(GolemAnimate(*map(parse_ingredient, pair)))
        if reply is not None:
            ui.show_result(GolemAnimationView(reply.animated))

    ui.log_action("golem animate")
    ui.push(PickStep(ui, 2, done))


class LibraryStep(Step):
    """Palace library, private: the four offered ingredients; ok asks sun or moon, back leaves."""

    def __init__(self, ui: Host, offered: tuple[str, ...]) -> None:
        super().__init__(ui)
        self.offered = offered
        self.selected = 0

    def view(self) -> object:
        return LibraryOfferView(self.offered, self.selected)

    def press(self, button: str) -> None:
        if button in ("up", "down"):
            self.selected = (self.selected + (1 if button == "down" else -1)) % len(self.offered)
        elif button == "back":
            self.ui.pop()
        elif button == "ok":
            reply = self.ui.ask(LibraryAnswer(parse_ingredient(self.offered[self.selected])))
            if reply is not None:
                self.ui.show_result(LibraryAnswerView(reply.library_class.value))


def library(ui: Host) -> None:
    """Palace library: the device offers four random ingredients, the player picks one."""
    ui.log_action("library")
    reply = ui.ask(LibraryOffer())
    if reply is None:
        return
    ui.push(LibraryStep(ui, tuple(ingredient.id for ingredient in reply.ingredients)))
