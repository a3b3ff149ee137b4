"""Reading a saved game back: each entry decoded alone, and its answer recomputed from the code.

A power cut, a worn SD card or a curious hand can spoil one entry of the log while the game and
the other entries are good. :func:`read_saved_game` keeps what can be read and recomputes every
answer (a stored answer is never trusted over the code), counting what it left out or corrected,
so the session can keep a copy of the file and tell the players.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Game, LabkitError, LogEntry
from firmware.store import StoredGame

__all__ = ["ReadGame", "read_saved_game"]


@dataclass(frozen=True)
class ReadGame:
    """A saved game as read: the game with the entries kept, and what was left out or corrected."""

    game: Game
    unreadable: int = 0
    corrected: int = 0

    @property
    def repaired(self) -> bool:
        """Whether the game differs from what was stored (the stored file is then worth keeping)."""
        return bool(self.unreadable or self.corrected)


def read_saved_game(stored: StoredGame) -> ReadGame:
    """The game of ``stored``, each log entry checked against the code.

    Raises the engine's ``LabkitError`` when the game itself (code, level, rules) cannot be read:
    without it no entry means anything.
    """
    game = Game.from_data({**stored.game, "log": []})
    unreadable, corrected = stored.unreadable, 0
    for data in stored.log:
        try:
            entry = LogEntry.from_data(data)
            replayed = game.replayed(entry)
        except LabkitError:
            unreadable += 1
            continue
        if replayed.answer != entry.answer:
            corrected += 1
        game.log.append(replayed)
    return ReadGame(game, unreadable, corrected)
