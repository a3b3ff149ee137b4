"""The kit's own golem codes of before issue 14, read only to resume a game saved with one.

Until then the kit wrote a golem game as an official 2014 base code (ending A..E, or DEMO) and a
fifth letter of its own, picked from a per-base-code order of the alphabet. The official King's
Golem algorithm reads those strings as other games, so :func:`read_legacy_kit_code` is used by one
caller only: :meth:`engine.game.Game.from_data`, for a game the previous version saved (schema 1),
so that its answers do not change under the players. Every other path reads official codes only.

>>> read_legacy_kit_code("IPTEY").golem.to_data()
{'chest': {'colour': 'G', 'size': 'large'}, 'ears': {'colour': 'R', 'size': 'small'}}
>>> read_legacy_kit_code("QWINA")
Traceback (most recent call last):
...
engine.errors.LogFormatError: saved game code 'QWINA' is no code of the kit's old golem scheme (its first four letters must end A to E, or be DEMO)
"""

from __future__ import annotations

import hashlib

from engine.codes import LAST_LETTERS_2014, LETTERS, TUTORIAL_CODE, DecodedCode, normalise_code, read_2014, read_code
from engine.errors import LogFormatError
from engine.golem import GOLEMS


def _fifth_letter_order(base: str) -> str:
    """The old scheme: the 26 letters sorted by a hash keyed by the base code; the first 24 name GOLEMS."""
    return "".join(
        sorted(LETTERS, key=lambda letter: hashlib.sha256(f"labkit golem:{base}:{letter}".encode()).digest())
    )


def read_legacy_kit_code(text: str) -> DecodedCode:
    """A code saved by the previous version: 4 letters as the official app, 5 as the kit's old scheme."""
    code = normalise_code(text)
    if len(code) == 4:
        return read_code(code)
    base = code[:4]
    if base != TUTORIAL_CODE and base[3] not in LAST_LETTERS_2014:
        raise LogFormatError(
            f"saved game code {text!r} is no code of the kit's old golem scheme"
            " (its first four letters must end A to E, or be DEMO)"
        )
    position = _fifth_letter_order(base).index(code[4])
    if position >= len(GOLEMS):
        raise LogFormatError(f"saved game code {text!r}: its fifth letter {code[4]} encodes no golem in the old scheme")
    return DecodedCode(code, read_2014(base), GOLEMS[position], "kit legacy golem")
