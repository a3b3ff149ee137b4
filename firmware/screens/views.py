"""View models: what each screen shows, as small frozen dataclasses of plain data.

Vocabulary (the engine's words, no engine types):

- potion: ``"R+" "R-" "G+" "G-" "B+" "B-" "N"``;
- ingredient: ``"fern" "claw" "mushroom" "flower" "root" "scorpion" "toad" "feather"``;
- colour (aspect): ``"R" "G" "B"``; sign: ``"+" "-"``; alchemical: ``"Ppn"``-style notation;
- quality: ``"exact" "sign" "neutral" "wrong"``; library class: ``"sun" "moon"``;
- text fields take a :data:`~firmware.screens.text.Text`: a message id (``"menu.sell"``),
  a :class:`~firmware.screens.text.Msg` with parameters, or a :class:`~firmware.screens.text.Raw`.

Public results (meant for the whole table) are drawn large; private ones small. No result view
has a field for the ingredients that made it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import COLOUR_NAMES, INGREDIENT_IDS, POTION_WORDS, Quality
from firmware.screens.text import Text

# the words a view may hold, to check views: the engine's (the screens use its words, not its types)
POTIONS = POTION_WORDS
INGREDIENTS = INGREDIENT_IDS
COLOURS = COLOUR_NAMES
SIGNS = ("+", "-")
QUALITIES = tuple(quality.value for quality in Quality)
SCAN_STATUSES = ("nothing", "adjust", "reading", "more", "same", "turn", "learn", "learning")
SHELF_UNLEARNED = ("learn", "learning")
"""The scan prompt's statuses before the kit has learned its empty shelf: no card is read yet."""


def _one_of(name: str, value: object, allowed: tuple[object, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


def _index(name: str, value: int, count: int) -> None:
    if not 0 <= value < max(count, 1):
        raise ValueError(f"{name} {value} out of range for {count} item(s)")


# --- navigation --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MenuView:
    """A list of choices; ``selected`` is highlighted and kept in view (the list scrolls)."""

    title: Text
    items: tuple[Text, ...]
    selected: int = 0

    def __post_init__(self) -> None:
        _index("selected", self.selected, len(self.items))


@dataclass(frozen=True)
class SettingItem:
    """One settings line: a label and its current value."""

    label: Text
    value: Text


@dataclass(frozen=True)
class SettingsView:
    """Settings list (language, level, tolerance, brightness, enrol cards), values right-aligned."""

    items: tuple[SettingItem, ...]
    selected: int = 0
    title: Text = "settings.title"

    def __post_init__(self) -> None:
        _index("selected", self.selected, len(self.items))


@dataclass(frozen=True)
class MessageView:
    """Information or error (the failsafe screen): title, wrapped text, and "ok: continue"."""

    text: Text
    title: Text = "error.title"
    error: bool = True


@dataclass(frozen=True)
class IdleView:
    """Dimmed idle screen, drawn shifted by ``(dx, dy)`` pixels against burn-in (|d| <= 8)."""

    dx: int = 0
    dy: int = 0
    code: str = ""

    def __post_init__(self) -> None:
        if abs(self.dx) > 8 or abs(self.dy) > 8:
            raise ValueError(f"idle offset ({self.dx}, {self.dy}) beyond 8 pixels")


# --- game code ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameCodeView:
    """The game code, large, to write down (4 letters, 5 with the golem)."""

    code: str
    title: Text = "code.title"

    def __post_init__(self) -> None:
        if not (4 <= len(self.code) <= 5 and self.code.isascii() and self.code.isupper()):
            raise ValueError(f"game code must be 4 or 5 letters A-Z, got {self.code!r}")


@dataclass(frozen=True)
class CodeEntryView:
    """Letter wheel: ``letters`` typed so far, ``current`` under the wheel, an optional error."""

    letters: str
    current: str
    length: int = 4
    error: Text | None = None
    title: Text = "entry.title"

    def __post_init__(self) -> None:
        if self.length not in (4, 5) or len(self.letters) >= self.length:
            raise ValueError(f"{len(self.letters)} letter(s) typed of a {self.length}-letter code")
        if len(self.current) != 1:
            raise ValueError(f"current letter must be one character, got {self.current!r}")


# --- scanning ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScanPromptView:
    """Lay the cards: ``cards`` is 1 or 2, ``status`` the live reader state."""

    cards: int = 2
    status: str = "nothing"

    def __post_init__(self) -> None:
        _one_of("cards", self.cards, (1, 2))
        _one_of("status", self.status, SCAN_STATUSES)


@dataclass(frozen=True)
class ScanConfirmView:
    """Private: the recognised ingredients, small, with "ok = confirm, back = rescan".

    ``again``: they are the cards of the previous action, still on the shelf.
    """

    ingredients: tuple[str, ...]
    again: bool = False

    def __post_init__(self) -> None:
        for ingredient in self.ingredients:
            _one_of("ingredient", ingredient, INGREDIENTS)


@dataclass(frozen=True)
class IngredientPickerView:
    """Private manual choice of an ingredient; ``chosen`` are marked (e.g. the first of a pair)."""

    selected: int = 0
    options: tuple[str, ...] = INGREDIENTS
    chosen: tuple[str, ...] = ()
    title: Text = "pick.ingredient"
    private: bool = True  # a debunk's ingredients are public

    def __post_init__(self) -> None:
        _index("selected", self.selected, len(self.options))
        for ingredient in self.options + self.chosen:
            _one_of("ingredient", ingredient, INGREDIENTS)


@dataclass(frozen=True)
class ChoiceView:
    """Choose a potion (``kind="potion"``) or an aspect colour (``kind="colour"``) from icons."""

    kind: str
    selected: int = 0
    options: tuple[str, ...] = ()
    title: Text = "choose.potion"

    def __post_init__(self) -> None:
        _one_of("kind", self.kind, ("potion", "colour"))
        allowed = POTIONS if self.kind == "potion" else COLOURS
        for option in self.options:
            _one_of(self.kind, option, allowed)
        _index("selected", self.selected, len(self.resolved_options))

    @property
    def resolved_options(self) -> tuple[str, ...]:
        """The options, defaulting to the six non-neutral potions or the three colours."""
        if self.options:
            return self.options
        return POTIONS[:6] if self.kind == "potion" else COLOURS


# --- public results ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PotionView:
    """The potion, large, with its icon (experiment; variant debunk with ``title="debunk.title"``)."""

    potion: str
    title: Text = "potion.title"

    def __post_init__(self) -> None:
        _one_of("potion", self.potion, POTIONS)


@dataclass(frozen=True)
class SaleView:
    """The sale's quality level, large, with its icon; never the potion made."""

    quality: str

    def __post_init__(self) -> None:
        _one_of("quality", self.quality, QUALITIES)


@dataclass(frozen=True)
class DebunkSignView:
    """Apprentice debunk: the sign of the chosen aspect, large."""

    colour: str
    sign: str

    def __post_init__(self) -> None:
        _one_of("colour", self.colour, COLOURS)
        _one_of("sign", self.sign, SIGNS)


@dataclass(frozen=True)
class DebunkYesNoView:
    """Master debunk: do the two chosen ingredients make ``potion``? Yes or no, large."""

    potion: str
    answer: bool

    def __post_init__(self) -> None:
        _one_of("potion", self.potion, POTIONS)


@dataclass(frozen=True)
class ExhibitionView:
    """Exhibition: was the promised ``potion`` made? Success or failure, large."""

    potion: str
    success: bool

    def __post_init__(self) -> None:
        _one_of("potion", self.potion, POTIONS[:6])


@dataclass(frozen=True)
class GolemTestView:
    """Golem test, drawn as the golem: chest glows or not, ears steam or not."""

    chest: bool
    ears: bool


@dataclass(frozen=True)
class GolemAnimationView:
    """Animate the golem: alive or not, large."""

    alive: bool


@dataclass(frozen=True)
class LibraryOfferView:
    """Private: the four offered ingredients, one selected."""

    ingredients: tuple[str, ...]
    selected: int = 0

    def __post_init__(self) -> None:
        _index("selected", self.selected, len(self.ingredients))
        for ingredient in self.ingredients:
            _one_of("ingredient", ingredient, INGREDIENTS)


@dataclass(frozen=True)
class LibraryAnswerView:
    """Private: sun or moon for the chosen ingredient (which one is not shown)."""

    library_class: str

    def __post_init__(self) -> None:
        _one_of("library_class", self.library_class, ("sun", "moon"))


@dataclass(frozen=True)
class HistoryEntry:
    """One public result. ``kind`` picks the fields used:

    - ``"potion"``: potion; ``"sale"``: quality; ``"exhibition"``: potion (promised), success;
    - ``"debunk_sign"``: ingredient, colour, sign (the debunked ingredient is public);
    - ``"debunk_pair"``: potion, answer; ``"debunk_variant"``: potion;
    - ``"golem_test"``: chest, ears; ``"golem_animate"``: success.
    """

    kind: str
    potion: str = ""
    quality: str = ""
    ingredient: str = ""
    colour: str = ""
    sign: str = ""
    answer: bool = False
    success: bool = False
    chest: bool = False
    ears: bool = False

    KINDS = ("potion", "sale", "debunk_sign", "debunk_pair", "debunk_variant", "exhibition",
             "golem_test", "golem_animate")

    def __post_init__(self) -> None:
        _one_of("kind", self.kind, self.KINDS)
        if self.kind in ("potion", "debunk_pair", "debunk_variant", "exhibition"):
            _one_of("potion", self.potion, POTIONS)
        if self.kind == "sale":
            _one_of("quality", self.quality, QUALITIES)
        if self.kind == "debunk_sign":
            _one_of("ingredient", self.ingredient, INGREDIENTS)
            _one_of("colour", self.colour, COLOURS)
            _one_of("sign", self.sign, SIGNS)


@dataclass(frozen=True)
class HistoryView:
    """Public results, newest first as given; ``top`` is the first entry shown (page with up/down)."""

    entries: tuple[HistoryEntry, ...]
    top: int = 0

    def __post_init__(self) -> None:
        if self.entries:
            _index("top", self.top, len(self.entries))


# --- reveal ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HoldView:
    """Before the reveal: hold ok+back for 3 s; ``progress`` from 0.0 to 1.0."""

    progress: float = 0.0
    title: Text = "hold.title"

    def __post_init__(self) -> None:
        if not 0.0 <= self.progress <= 1.0:
            raise ValueError(f"progress must be within 0..1, got {self.progress}")


@dataclass(frozen=True)
class ConfirmView:
    """A yes/no question: ok = yes, back = no."""

    question: Text = "confirm.reveal"
    title: Text = "confirm.title"


@dataclass(frozen=True)
class RevealIngredientView:
    """Reveal page: an ingredient and its alchemical (``"Ppn"`` notation), drawn as the game draws it."""

    ingredient: str
    alchemical: str
    page: int = 1
    pages: int = 9

    def __post_init__(self) -> None:
        _one_of("ingredient", self.ingredient, INGREDIENTS)
        if len(self.alchemical) != 3 or any(ch not in "PpNn" for ch in self.alchemical):
            raise ValueError(f"alchemical must be like 'Ppn', got {self.alchemical!r}")


@dataclass(frozen=True)
class RevealGolemView:
    """Reveal page of the golem: what its chest and its ears react to (colour, size)."""

    chest_colour: str
    chest_large: bool
    ears_colour: str
    ears_large: bool
    page: int = 9
    pages: int = 11

    def __post_init__(self) -> None:
        _one_of("chest_colour", self.chest_colour, COLOURS)
        _one_of("ears_colour", self.ears_colour, COLOURS)


@dataclass(frozen=True)
class RevealAnimatorsView:
    """Reveal page of the golem: the two ingredients that animate it, one a line."""

    pair: tuple[str, str]
    page: int = 10
    pages: int = 11

    def __post_init__(self) -> None:
        for ingredient in self.pair:
            _one_of("ingredient", ingredient, INGREDIENTS)


@dataclass(frozen=True)
class RevealAllView:
    """The last reveal page: the eight alchemicals at once, in the ingredients' order."""

    alchemicals: tuple[str, ...]
    page: int = 9
    pages: int = 9

    def __post_init__(self) -> None:
        if len(self.alchemicals) != len(INGREDIENTS):
            raise ValueError(f"alchemicals must be {len(INGREDIENTS)}, got {len(self.alchemicals)}")
        for notation in self.alchemicals:
            if len(notation) != 3 or any(ch not in "PpNn" for ch in notation):
                raise ValueError(f"alchemical must be like 'Ppn', got {notation!r}")


# --- settings ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CalibrationView:
    """Card enrolment step ``index`` of ``total``: lay the card, then recognised or failed."""

    ingredient: str
    step: str = "lay"
    index: int = 1
    total: int = 8

    def __post_init__(self) -> None:
        _one_of("ingredient", self.ingredient, INGREDIENTS)
        _one_of("step", self.step, ("lay", "ok", "fail"))


#: the back's enrolment step: laying the card, captured, not recognised, or a face captured
CALIBRATION_BACK_STEPS = ("lay", "ok", "fail", "face_up")


@dataclass(frozen=True)
class CalibrationBackView:
    """The last enrolment step, ``index`` of ``total``: one card face down, so the card reader
    knows the back and can say when a card lies face down; it may be skipped. ``face_up``: the
    card captured shows one of the faces."""

    step: str = "lay"
    index: int = 9
    total: int = 9

    def __post_init__(self) -> None:
        _one_of("step", self.step, CALIBRATION_BACK_STEPS)


View = (MenuView | SettingsView | MessageView | IdleView | GameCodeView | CodeEntryView
        | ScanPromptView | ScanConfirmView | IngredientPickerView | ChoiceView | PotionView
        | SaleView | DebunkSignView | DebunkYesNoView | ExhibitionView | GolemTestView
        | GolemAnimationView | LibraryOfferView | LibraryAnswerView | HistoryView | HoldView
        | ConfirmView | RevealIngredientView | RevealGolemView | RevealAnimatorsView | RevealAllView
        | CalibrationView | CalibrationBackView)

__all__ = ["POTIONS", "INGREDIENTS", "COLOURS", "SIGNS", "QUALITIES", "SCAN_STATUSES", "SHELF_UNLEARNED", "View",
           "MenuView", "SettingItem", "SettingsView", "MessageView", "IdleView", "GameCodeView",
           "CodeEntryView", "ScanPromptView", "ScanConfirmView", "IngredientPickerView",
           "ChoiceView", "PotionView", "SaleView", "DebunkSignView", "DebunkYesNoView",
           "ExhibitionView", "GolemTestView", "GolemAnimationView", "LibraryOfferView",
           "LibraryAnswerView", "HistoryEntry", "HistoryView", "HoldView", "ConfirmView",
           "RevealIngredientView", "RevealGolemView", "RevealAnimatorsView", "RevealAllView",
           "CalibrationView", "CalibrationBackView"]
