"""Stability: a shelf is reported once it has held still, and once when cleared."""

from __future__ import annotations

import pytest

from drivers.card_reader import CardSighting, FrameReading, ShelfEvent, ShelfWatcher

QUAD = ((0.0, 0.0), (10.0, 0.0), (10.0, 14.0), (0.0, 14.0))


def ok(*ingredients: str) -> FrameReading:
    return FrameReading("ok", [CardSighting(i, QUAD, 0.9) for i in ingredients])


EMPTY = FrameReading("empty")
UNSURE = FrameReading("unsure", [CardSighting(None, QUAD, 0.1)])


def feed(watcher: ShelfWatcher, readings: list[FrameReading]) -> list[ShelfEvent]:
    return [e for e in (watcher.update(r) for r in readings) if e is not None]


def test_stable_after_n_equal_frames_and_only_once() -> None:
    w = ShelfWatcher(required_frames=3)
    assert w.update(ok("toad", "fern")) is None
    assert w.update(ok("fern", "toad")) is None          # order does not matter
    assert w.update(ok("toad", "fern")) == ShelfEvent("stable", ("fern", "toad"))
    assert feed(w, [ok("toad", "fern")] * 5) == []


def test_a_flicker_restarts_the_count() -> None:
    w = ShelfWatcher(required_frames=3)
    events = feed(w, [ok("toad"), ok("toad"), ok("fern"), ok("toad"), ok("toad")])
    assert events == []
    assert w.update(ok("toad")) == ShelfEvent("stable", ("toad",))


def test_a_passing_hand_does_not_reannounce_the_same_cards() -> None:
    w = ShelfWatcher(required_frames=2)
    events = feed(w, [ok("toad", "claw")] * 2 + [UNSURE] + [ok("toad", "claw")] * 3)
    assert events == [ShelfEvent("stable", ("claw", "toad"))]


def test_cleared_once_after_cards_left() -> None:
    w = ShelfWatcher(required_frames=2)
    assert feed(w, [EMPTY] * 4) == []                     # nothing was ever there
    events = feed(w, [ok("root")] * 2 + [EMPTY] * 5)
    assert events == [ShelfEvent("stable", ("root",)), ShelfEvent("cleared")]


def test_same_pair_is_announced_again_after_clearing() -> None:
    w = ShelfWatcher(required_frames=1)
    events = feed(w, [ok("root"), EMPTY, ok("root")])
    assert [e.kind for e in events] == ["stable", "cleared", "stable"]


def test_unsure_for_n_frames_asks_to_adjust_once() -> None:
    w = ShelfWatcher(required_frames=3)
    events = feed(w, [UNSURE] * 6)
    assert events == [ShelfEvent("unsure")]
    events = feed(w, [ok("fern")] * 3 + [EMPTY] * 3)
    assert [e.kind for e in events] == ["stable", "cleared"]


def test_reset_forgets_what_was_announced() -> None:
    w = ShelfWatcher(required_frames=1)
    assert w.update(ok("fern")) is not None
    w.reset()
    assert w.update(ok("fern")) == ShelfEvent("stable", ("fern",))


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3"])
def test_required_frames_must_be_a_positive_int(bad: object) -> None:
    with pytest.raises(ValueError):
        ShelfWatcher(required_frames=bad)  # type: ignore[arg-type]


def test_update_takes_readings_only() -> None:
    with pytest.raises(TypeError):
        ShelfWatcher().update("ok")  # type: ignore[arg-type]


def test_unknown_event_kind_is_refused() -> None:
    with pytest.raises(ValueError):
        ShelfEvent("maybe")


def test_a_card_face_down_is_announced_as_such() -> None:
    face_down = FrameReading("unsure", [CardSighting("fern", QUAD, 0.9), CardSighting(None, QUAD, 0.0, face_down=True)])
    w = ShelfWatcher(required_frames=2)
    assert feed(w, [face_down] * 3) == [ShelfEvent("unsure", face_down=True)]
    assert feed(w, [UNSURE] * 3) == [ShelfEvent("unsure")]     # turned over, still to adjust: said again
    assert face_down.to_json()["cards"][1]["face_down"] is True  # type: ignore[index]
    assert "face_down" not in UNSURE.to_json()["cards"][0]     # type: ignore[index]
