"""The empty shelf kept across restarts: saved by the camera thread when it changes (at once when
the user captured it, else at most every ten minutes), loaded when the kit starts; a bad file is
named in the log and changes nothing."""

from __future__ import annotations

import logging
import stat
from pathlib import Path

import numpy as np
import pytest

from drivers.card_reader.designs import empty_shelf
from drivers.card_reader.scenes import Conditions
from drivers.card_reader.shelf import EmptyShelf
from firmware.shelf_file import SAVE_INTERVAL, ShelfSaver, load_shelf


def shelf_frame(seed: int = 1) -> np.ndarray:
    return empty_shelf("stone", (640, 480), seed, Conditions(), seed)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_saved_shelf_is_loaded_as_it_was_captured(tmp_path: Path) -> None:
    path = tmp_path / "empty_shelf.png"
    shelf = EmptyShelf(shelf_frame())
    assert ShelfSaver(path).update(shelf, at_once=True)
    loaded = load_shelf(path)
    assert isinstance(loaded, EmptyShelf)
    assert np.array_equal(loaded.frame, shelf.frame)                  # PNG: nothing lost
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not path.with_name(path.name + ".partial").exists()


def test_no_saved_shelf_is_none(tmp_path: Path) -> None:
    assert load_shelf(tmp_path / "empty_shelf.png") is None


def test_an_unreadable_shelf_file_is_named_and_left_as_it_is(tmp_path: Path, caplog) -> None:
    path = tmp_path / "empty_shelf.png"
    path.write_bytes(b"not a picture")
    with caplog.at_level(logging.WARNING, logger="firmware.shelf_file"):
        assert load_shelf(path) is None
    assert str(path) in caplog.text
    assert path.read_bytes() == b"not a picture"


def test_the_keepers_captures_are_written_at_most_every_interval(tmp_path: Path) -> None:
    clock = Clock()
    saver = ShelfSaver(tmp_path / "empty_shelf.png", clock=clock)
    first, second, third = (EmptyShelf(shelf_frame(seed)) for seed in (1, 2, 3))
    assert saver.update(first)                              # the first capture since the start
    assert not saver.update(first)                          # the same shelf again: nothing to write
    clock.now += SAVE_INTERVAL / 2
    assert not saver.update(second)                         # too soon after the last write
    assert saver.update(third, at_once=True)                # the user captured it: at once
    clock.now += SAVE_INTERVAL
    assert saver.update(second)
    assert np.array_equal(load_shelf(saver.path).frame, second.frame)   # type: ignore[union-attr]


def test_the_shelf_loaded_at_the_start_is_not_written_again(tmp_path: Path) -> None:
    path = tmp_path / "empty_shelf.png"
    shelf = EmptyShelf(shelf_frame())
    assert not ShelfSaver(path, saved=shelf).update(shelf)
    assert not path.exists()


def test_a_failing_write_is_logged_once_and_raises_nothing(tmp_path: Path, caplog) -> None:
    path = tmp_path / "missing" / "empty_shelf.png"           # its directory does not exist
    saver = ShelfSaver(path, interval=0)
    with caplog.at_level(logging.WARNING, logger="firmware.shelf_file"):
        assert not saver.update(EmptyShelf(shelf_frame(1)))
        assert not saver.update(EmptyShelf(shelf_frame(2)))
    assert caplog.text.count("cannot save the empty shelf") == 1
    path.parent.mkdir()
    assert saver.update(EmptyShelf(shelf_frame(3)))


def test_a_bad_interval_is_refused_by_name(tmp_path: Path) -> None:
    for bad in (-1, True, "600"):
        with pytest.raises(ValueError, match="interval"):
            ShelfSaver(tmp_path / "empty_shelf.png", interval=bad)   # type: ignore[arg-type]
