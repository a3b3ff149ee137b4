"""Build the stored databases of the previous version (the kit's own 5th-letter golem codes).

Run once at commit 981e3b5 (the last version that wrote those codes), from the repository root:

    git checkout 981e3b5 -- engine firmware   (in a scratch worktree)
    PYTHONPATH=. python tests/firmware/data/make_legacy_stores.py OUT_DIR

For each game it writes ``<name>.db`` (the state database as the daemon left it) and ``<name>.json``
(the code, the log, and every answer that version gave: reveal, each pair's potion, each golem test),
which tests/firmware/test_legacy_store.py compares with what this version answers after resuming.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

from engine import INGREDIENT_IDS, parse_question
from firmware.session import GameOptions, GameSession
from firmware.store import GameStore

QUESTIONS = {
    "golem": ["mix fern toad", "sell R+ claw root", "golem test mushroom", "library offer",
              "golem animate fern feather", "debunk flower B"],
    "base": ["mix fern toad", "sell G- claw root", "debunk scorpion R"],
}


def build(out: Path, name: str, golem: bool, seed: int) -> None:
    """Play a few questions of one new game into ``out/name/labkit.db`` and record every answer."""
    state = out / name
    store = GameStore.open(state)
    session = GameSession(store, clock=lambda: 1_700_000_000.0, rng=random.Random(seed))
    game = session.new_game(GameOptions(golem=golem))
    replies = [session.ask(parse_question(text.split())) for text in QUESTIONS[name]]
    mixes = {f"{a} {b}": game.answer(parse_question(["mix", a, b]))["potion"]
             for a, b in itertools.combinations(INGREDIENT_IDS, 2)}
    tests = {}
    if golem:
        tests = {name: game.answer(parse_question(["golem", "test", name])) for name in INGREDIENT_IDS}
    expected = {"code": game.code, "questions": QUESTIONS[name], "replies": replies, "mixes": mixes,
                "golem_tests": tests, "reveal": game.reveal()}
    store.close()
    (out / f"{name}.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    target = Path(sys.argv[1])
    build(target, "golem", golem=True, seed=14)
    build(target, "base", golem=False, seed=15)
