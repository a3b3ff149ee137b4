"""No button, shelf, tick or fault sequence crashes LabUi, and every view it shows can be drawn."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Level, Rules
from firmware.screens.draw import COLOUR, MONO, render_view
from firmware.screens.views import INGREDIENTS
from firmware.session import GameOptions
from tests.firmware.ui.helpers import Table

BUTTONS = ("up", "down", "ok", "back")

buttons = st.tuples(st.just("button"), st.sampled_from(BUTTONS),
                    st.sampled_from(("press", "release", "press", "release", "hold", "stuck")))
taps = st.tuples(st.just("tap"), st.sampled_from(BUTTONS + ("ok", "ok", "down")), st.just(""))
shelves = st.one_of(
    st.tuples(st.just("shelf"), st.just("stable"),
              st.lists(st.sampled_from(INGREDIENTS), max_size=3).map(tuple)),
    st.tuples(st.just("shelf"), st.sampled_from(("unsure", "cleared")), st.just(())),
    st.tuples(st.just("shelf"), st.just("live"), st.sampled_from(("ok", "unsure", "empty", "?"))),
)
ticks = st.tuples(st.just("tick"), st.sampled_from((0.1, 0.5, 1.0, 3.1, 61.0, 200.0)), st.just(""))
faults = st.tuples(st.just("fault"), st.sampled_from(("camera", "storage", "display")),
                   st.sampled_from(("broken", None)))
events = st.lists(st.one_of(taps, taps, taps, buttons, shelves, ticks, faults), max_size=60)
games = st.one_of(st.none(), st.builds(GameOptions, st.sampled_from(list(Rules)),
                                       st.sampled_from(list(Level)), st.booleans())
                  .filter(lambda options: not (options.golem and options.rules is Rules.ALCHYMISTI)))  # no such game


@settings(max_examples=int(os.environ.get("LABKIT_MASH_EXAMPLES", "120")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(games, events, st.sampled_from(("en", "ru", "pl", "sk")))
def test_any_sequence_keeps_a_drawable_view(caplog: pytest.LogCaptureFixture,
                                            options: GameOptions | None, script: list[tuple],
                                            language: str) -> None:
    caplog.clear()
    table = Table(idle=120.0)
    table.store.settings.set("language", language)
    if options is not None:
        table.session.new_game(options)
    for kind, first, second in script:
        if kind == "button":
            table.button(first, second)
        elif kind == "tap":
            table.press(first)
        elif kind == "shelf" and first == "live":
            table.shelf("live", status=second)
        elif kind == "shelf":
            table.shelf(first, *second)
        elif kind == "tick":
            table.tick(first)
        else:
            table.fault(first, second)
        view = table.view
        size = MONO if len(script) % 2 else COLOUR
        render_view(view, size, table.ui.language())
        assert table.ui.cards_wanted() in (0, 1, 2)
        assert 0 <= table.ui.brightness() <= 255
    for size in (MONO, COLOUR):
        render_view(table.view, size, table.ui.language())
    logged = caplog.text.lower()
    assert not any(name in logged for name in INGREDIENTS), "an ingredient went to the log"
    if table.session.game is not None:
        code = table.session.game.code
        assert not re.search(rf"\b{code}\b", caplog.text), "the game code went to the log"
