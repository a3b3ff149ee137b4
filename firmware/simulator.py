"""The simulator's shelf: lays rendered ingredient cards in front of the replay camera.

Keys in the terminal (listed under the picture, see ``terminal_notes``): ``1``..``8`` lay fern, claw, mushroom, flower, root, scorpion, toad,
feather (two at most; a third replaces the oldest), ``0`` clears the shelf, ``u`` lays an
unreadable card (cut off by the frame edge), ``x`` presses or releases ok and back together (hold
it 3 seconds for the reveal). The cards are drawn from the shipped placeholder faces and read by
the real card reader, so the simulator exercises the whole path from pixels to potions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from drivers.card_reader import load_placeholder_faces
from drivers.card_reader.scenes import Placement, render_scene, shelf_background
from engine.alchemy import INGREDIENT_IDS as INGREDIENTS

SHELF_KEYS = {str(number + 1): ingredient for number, ingredient in enumerate(INGREDIENTS)}
LAYOUTS = {
    1: (Placement("", (0.5, 0.5), 8.0, 0.5),),
    2: (Placement("", (0.3, 0.5), -12.0, 0.48), Placement("", (0.71, 0.52), 174.0, 0.48)),
}
UNREADABLE = Placement("", (0.04, 0.5), 30.0, 0.55)
#: the simulated cauldron's shelf, the same under every card (the real one is fixed too: the kit
#: captures it empty and tells cards from it)
SHELF_SEED = 2


def empty_shelf_frame() -> Any:
    """The simulated shelf with nothing on it, as the camera shows it: the frame a kit that has
    learned this shelf holds (tests start kits that learned it in an earlier session)."""
    return render_scene({}, [], shelf_background((640, 480), seed=SHELF_SEED), seed=0)


def terminal_notes(log_file: str | None) -> list[str]:
    """The lines under the simulator's picture: where the log goes, then the keys.

    Items are separated by two spaces (the terminal writer wraps between items).
    """
    where = "stderr" if log_file in (None, "-") else log_file
    cards = " ".join(f"{key} {name}" for key, name in SHELF_KEYS.items())
    return [
        f"log: {where}",
        "up: \u2191 w k  down: \u2193 s j  ok: Enter Space  back: Backspace Esc",
        "hold back (home): h then Backspace  hold ok: h then Enter  "
        "ok+back: x, x again lets go (hold 3 s to reveal)",
        f"shelf: {cards}  0 clear  u unreadable card  quit: Ctrl-C (the game is kept)",
    ]


def farewell(log_file: str | None) -> str:
    """What the simulator prints when it stops and gives the terminal back."""
    return "labkit: stopped; the game is kept" + (
        f"; log: {log_file}" if log_file not in (None, "-") else "")


class SimulatedShelf:
    """What lies on the simulated shelf; shows it on a replay camera."""

    def __init__(self, camera: Any, press_both: Callable[[bool], None] | None = None) -> None:
        self.camera = camera
        self.press_both = press_both
        self.cards: list[str] = []
        self._faces = load_placeholder_faces()
        self._shelf = shelf_background((640, 480), seed=SHELF_SEED)
        camera.show(empty_shelf_frame())
        self._both_down = False
        self._lock = threading.Lock()
        self.changes = 0

    def lay(self, ingredients: Sequence[str]) -> None:
        """Lay these cards (one or two ingredient ids) on the shelf."""
        unknown = [name for name in ingredients if name not in INGREDIENTS]
        if unknown or not 1 <= len(ingredients) <= 2:
            raise ValueError(f"shelf: lay one or two of {', '.join(INGREDIENTS)}; not {' '.join(ingredients)!r}")
        placements = [
            Placement(name, spot.center, spot.angle, spot.height)
            for name, spot in zip(ingredients, LAYOUTS[len(ingredients)])
        ]
        self._show(list(ingredients), render_scene(self._faces, placements, self._shelf, seed=len(ingredients)))

    def lay_unreadable(self) -> None:
        """Lay a card that the reader cannot read with confidence (mostly outside the frame)."""
        placement = Placement(INGREDIENTS[0], UNREADABLE.center, UNREADABLE.angle, UNREADABLE.height)
        self._show(["?"], render_scene(self._faces, [placement], self._shelf, seed=9))

    def clear(self) -> None:
        """Take every card off the shelf."""
        self._show([], empty_shelf_frame())

    def on_key(self, key: str) -> None:
        """A key the keyboard buttons did not use."""
        if key in SHELF_KEYS:
            with self._lock:
                cards = [card for card in self.cards if card in INGREDIENTS and card != SHELF_KEYS[key]]
            self.lay((cards + [SHELF_KEYS[key]])[-2:])
        elif key == "0":
            self.clear()
        elif key == "u":
            self.lay_unreadable()
        elif key == "x" and self.press_both is not None:
            self._both_down = not self._both_down
            self.press_both(self._both_down)

    def _show(self, cards: list[str], frame: Any) -> None:
        with self._lock:
            self.cards = cards
            self.changes += 1
        self.camera.show(frame)
