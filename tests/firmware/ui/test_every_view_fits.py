"""Every view a whole game shows draws without TextDoesNotFit on both displays in four languages."""

from __future__ import annotations

import pytest

from firmware.screens.draw import COLOUR, MONO, render_view
from firmware.screens.views import INGREDIENTS, POTIONS, CodeEntryView
from tests.firmware.ui.helpers import Table
from tests.firmware.ui.test_restore import type_code

LANGUAGES = ("en", "ru", "pl", "sk")
_DRAWN: set[str] = set()
"""Views already drawn by an earlier parametrisation (the three games share most screens)."""


class Recording(Table):
    """A table that keeps every distinct view it was shown."""

    def __init__(self, **kwargs: object) -> None:
        self.seen: dict[str, object] = {}
        super().__init__(**kwargs)  # type: ignore[arg-type]

    @property
    def view(self) -> object:
        view = self.ui.view()
        self.seen.setdefault(repr(view), view)
        return view


def play_everything(table: Recording, *, golem: bool, master: bool, variant: bool) -> None:
    table.choose("menu.settings")
    for _ in range(5):
        table.press("down")
    table.choose("settings.calibrate")
    table.daemon.faces = [None]
    table.press("ok", "back")
    for _ in range(16):
        table.press("ok")
    table.press("ok", "back")    # the back captured, then taken again
    table.daemon.faces = [None]
    table.press("ok", "back")    # the back not found, then skipped: the faces are enrolled
    table.press("ok", "back")
    table.choose("menu.restore")
    type_code(table, "ABCF", start=False)  # the restore options, then back out of them and the wheel
    for _ in range(6):
        table.press("back")
    table.choose("menu.new_game")
    for _ in range(4):
        table.press("down")
    if variant:
        table.choose("newgame.rules")
    if master:
        table.choose("newgame.level")
    if golem:
        table.choose("newgame.golem")
    table.choose("menu.start")
    table.press("ok")
    for index, pair in enumerate(zip(INGREDIENTS[::2], INGREDIENTS[1::2])):
        table.choose("menu.experiment")
        table.shelf("live", status="ok")
        table.shelf("unsure")
        table.shelf("stable", *pair)
        table.press("ok", "ok")
        table.choose("menu.sell")
        table.pick(POTIONS[index % 6])
        table.press("ok")  # the manual choice
        table.pick(*pair)
        table.press("ok")
        if not variant:
            table.choose("menu.exhibition")
            table.pick(POTIONS[(index + 2) % 6])
            table.shelf("stable", *pair)
            table.press("ok", "ok")
        table.choose("menu.debunk")
        if variant or master:
            table.pick(*pair)
            if not variant:
                table.pick(POTIONS[index % 7])
        else:
            table.pick(pair[0])
            table.pick("RGB"[index % 3])
        table.press("ok")
        if golem:
            table.choose("menu.golem")
            table.choose("menu.golem_test")
            table.shelf("stable", pair[0])
            table.press("ok", "ok")
            table.choose("menu.golem")
            table.choose("menu.golem_animate")
            table.pick(*pair)
            table.press("ok")
            table.choose("menu.library")
            table.press("ok", "ok")
    table.choose("menu.history")
    for _ in range(12):
        table.press("down")
    table.press("ok")
    table.choose("menu.game")
    table.choose("menu.show_code")
    table.press("ok")
    table.choose("menu.reveal")
    table.button("ok", "press")
    table.button("back", "press")
    for _ in range(7):
        table.tick(0.5)
        table.view
    table.button("ok", "release")
    table.button("back", "release")
    for _ in range(10):
        table.press("ok")
    table.tick(500)
    table.view
    table.tick(60)
    table.view
    table.fault("camera", "gone")
    table.fault("storage", "full")
    table.view


@pytest.mark.parametrize("golem,master,variant", [(True, False, False), (False, True, False),
                                                  (False, False, True)])
def test_every_view_of_a_game_fits(golem: bool, master: bool, variant: bool) -> None:
    table = Recording()
    play_everything(table, golem=golem, master=master, variant=variant)
    assert any(isinstance(view, CodeEntryView) for view in table.seen.values())  # its error: the gallery
    assert len(table.seen) > 50
    failures = []
    for key, view in table.seen.items():
        if key in _DRAWN:
            continue
        _DRAWN.add(key)
        for size in (MONO, COLOUR):
            for language in LANGUAGES:
                try:
                    render_view(view, size, language)
                except ValueError as error:
                    failures.append(f"{view!r} {size} {language}: {error}")
    assert not failures, "\n".join(failures[:10])
