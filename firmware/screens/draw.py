"""Screens: pure functions from a view model to a PIL image, for both OLED sizes.

``render_view(view, size, language)`` dispatches on the view's type. Sizes: ``(128, 64)`` gives a
mode "1" image (monochrome SSD1306, the default), ``(128, 128)`` a mode "RGB" image (SSD1351).
Every text is fitted to its box; :class:`~firmware.screens.text.TextDoesNotFit` is raised when a
text cannot fit at the minimum font size.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PIL import Image

from firmware.i18n import translator
from firmware.screens import icons
from firmware.screens.icons import Box, Canvas
from firmware.screens.text import (
    MIN_SIZE, Msg, Raw, Text, TextDoesNotFit, draw_fitted, fit, font, resolve,
)
from firmware.screens.views import (
    INGREDIENTS,
    SHELF_UNLEARNED,
    CalibrationBackView,
    CalibrationView,
    ChoiceView,
    CodeEntryView,
    ConfirmView,
    DebunkSignView,
    DebunkYesNoView,
    ExhibitionView,
    GameCodeView,
    GolemAnimationView,
    GolemTestView,
    HistoryEntry,
    HistoryView,
    HoldView,
    IdleView,
    IngredientPickerView,
    LibraryAnswerView,
    LibraryOfferView,
    MenuView,
    MessageView,
    PotionView,
    RevealAllView,
    RevealAnimatorsView,
    RevealGolemView,
    RevealIngredientView,
    SaleView,
    ScanConfirmView,
    ScanPromptView,
    SettingsView,
)

MONO = (128, 64)
COLOUR = (128, 128)
MODES = {MONO: "1", COLOUR: "RGB"}
"""Supported display sizes and the image mode of each."""


class Screen:
    """Drawing state of one render: the canvas, the language, and layout helpers."""

    def __init__(self, size: tuple[int, int], language: str) -> None:
        if size not in MODES:
            raise ValueError(f"unsupported display size {size}; expected one of {list(MODES)}")
        self.cv = Canvas.new(size, MODES[size])
        self.gettext = translator(language)
        self.W, self.H = size
        self.tall = self.cv.tall

    # -- text -------------------------------------------------------------------------------

    def t(self, text: Text) -> str:
        return resolve(text, self.gettext)

    def text(self, text: Text | str, box: Box, max_size: int, *, fill: str = "fg",
             raw: bool = False, **kwargs: Any) -> int:
        """Fit and draw ``text`` (a message unless ``raw``); returns the font size used."""
        string = text if raw else self.t(text)
        assert isinstance(string, str)
        fitted = fit(string, box, max_size, **kwargs)
        draw_fitted(self.cv.draw, fitted, self.cv.c(fill))
        return fitted.size

    # -- frame ------------------------------------------------------------------------------

    @property
    def title_h(self) -> int:
        return 18 if self.tall else 12

    @property
    def hint_h(self) -> int:
        return 15 if self.tall else 10

    def title(self, text: Text, *, raw: bool = False, icon: Callable[..., None] | None = None
              ) -> int:
        """Title bar; returns the first free row below it."""
        h = self.title_h
        x0 = 2
        if self.cv.colour:
            self.cv.draw.rectangle((0, 0, self.W - 1, h - 2), fill=self.cv.c("bar"))
        else:
            self.cv.draw.line((0, h - 1, self.W - 1, h - 1), fill=1)
        if icon is not None:
            icon(self.cv, (1, 0, h - 1, h - 2))
            x0 = h
        self.text(text, (x0, 0, self.W - 2, h - 2), 14 if self.tall else 10, bold=True,
                  align="left", raw=raw)
        return h + 1

    def keys(self, back: str | None, ok: str | None) -> int:
        """The one hint bar: what back does on the left, what ok does on the right (``key.back``, ``key.ok``,
        ``act.<word>``, each in its half, so a pair never breaks); returns the row where the content must stop."""
        top = self.H - self.hint_h
        fill = "dim" if self.cv.colour else "fg"
        left = None if back is None else self.t(Msg("key.back", (("action", Msg(f"act.{back}")),)))
        right = None if ok is None else self.t(Msg("key.ok", (("action", Msg(f"act.{ok}")),)))
        # each text keeps its side; the longer may reach past the middle when the other leaves
        # room, both a little smaller if need be (never below MIN_SIZE)
        size = 12 if self.tall else 9
        widths = [0.0, 0.0]
        for size in range(size, MIN_SIZE - 1, -1):
            widths = [font(size).getlength(text) if text else 0.0 for text in (left, right)]
            if sum(widths) + 6 <= self.W:
                break
        split = self.W // 2 if sum(widths) + 6 > self.W else int(widths[0]) + 3
        if left is not None:
            self.text(left, (0, top, split - 1, self.H), size, min_size=MIN_SIZE, align="left",
                      fill=fill, raw=True)
        if right is not None:
            self.text(right, (split + 1, top, self.W, self.H), size, min_size=MIN_SIZE, align="right",
                      fill=fill, raw=True)
        return top - 1

    def note(self, text: Text, bottom: int, fill: str = "bad") -> int:
        """A note above the hint bar (a refused code: two lines, one on 64 rows); the row above it."""
        h = 26 if self.tall else 11  # one line of Cyrillic with its ascenders and descenders
        self.text(text, (0, bottom - h, self.W, bottom), 12 if self.tall else 9, max_lines=2 if self.tall else 1,
                  fill=fill)
        return bottom - h - 1

    # -- lists ------------------------------------------------------------------------------

    def list(self, top: int, items: list[tuple[str, str | None]], selected: int,
             bottom: int | None = None, max_size: int | None = None) -> None:
        """Scrolling list of (label, right-hand value) rows with ``selected`` highlighted."""
        bottom = self.H if bottom is None else bottom
        row_h = 18 if self.tall else 12
        rows = max((bottom - top) // row_h, 1)
        first = max(0, selected - rows + 1)
        scroll = len(items) > rows
        right = self.W - (7 if scroll else 0)
        size = max_size or 10  # every row of every list, in every language, fits at this size
        for slot, index in enumerate(range(first, min(first + rows, len(items)))):
            label, value = items[index]
            y = top + slot * row_h
            ink = "fg"
            if index == selected:
                self.cv.draw.rectangle((0, y, right - 1, y + row_h - 2),
                                       fill=self.cv.c("gold" if self.cv.colour else "fg"))
                ink = "bg"
            box_right = right - 2
            if value is not None:
                used = fit(value, (right // 2, y, box_right, y + row_h - 1), size, align="right")
                draw_fitted(self.cv.draw, used, self.cv.c(ink))
                box_right = right - 4 - max(int(used.face.getlength(line)) for line in used.lines)
            self.text(label, (2, y, box_right, y + row_h - 1), size, fill=ink, raw=True,
                      align="left", min_size=size)  # a row never shrinks: the words are short
        if scroll:
            x = self.W - 4
            if first > 0:
                icons.triangle(self.cv, (x, top + 3), 3, up=True)
            if first + rows < len(items):
                icons.triangle(self.cv, (x, bottom - 4), 3, up=False)

    # -- result layout ----------------------------------------------------------------------

    def result(self, top: int, draw_icon: Callable[[Box], None], text: Text,
               fill: str = "fg", raw: bool = False, detail: Text | None = None) -> None:
        """Public result: icon and large text (side by side on 64 rows, stacked on 128), and under
        the text a smaller ``detail`` (what the colours say on a colour screen: a potion's sign)."""
        detail_h = 0 if detail is None else (18 if self.tall else 13)
        if self.tall:
            icon_h = (self.H - top - detail_h) * 56 // 100
            half = icon_h // 2
            draw_icon((self.W // 2 - half, top + 2, self.W // 2 + half, top + 2 + icon_h))
            text_box = (2, top + icon_h + 4, self.W - 2, self.H - 2 - detail_h)
            self.text(text, text_box, 30, bold=True, max_lines=2, fill=fill, raw=raw, min_size=12)
            if detail is not None:
                self.text(detail, (2, self.H - 1 - detail_h, self.W - 2, self.H - 1), 16, min_size=11)
        else:
            draw_icon((0, top + 4, 36, self.H - 2))
            self.text(text, (37, top, self.W - 1, self.H - detail_h), 22, bold=True, max_lines=2,
                      fill=fill, raw=raw, min_size=10)
            if detail is not None:
                self.text(detail, (37, self.H - detail_h, self.W - 1, self.H), 12, min_size=9)

    def image(self) -> Image.Image:
        return self.cv.image


# --- screens -----------------------------------------------------------------------------------


def render_menu(view: MenuView, s: Screen) -> None:
    top = s.title(view.title)
    s.list(top + 1, [(s.t(item), None) for item in view.items], view.selected)


def render_settings(view: SettingsView, s: Screen) -> None:
    top = s.title(view.title)
    s.list(top + 1, [(s.t(item.label), s.t(item.value)) for item in view.items], view.selected)


def render_message(view: MessageView, s: Screen) -> None:
    top = s.title(view.title, icon=icons.warning if view.error else None)
    bottom = s.keys(None, "continue")
    s.text(view.text, (2, top + 1, s.W - 2, bottom), 18 if s.tall else 13,
           max_lines=6 if s.tall else 4)


def render_idle(view: IdleView, s: Screen) -> None:
    inner = Screen((s.W, s.H), "en")
    inner.gettext = s.gettext
    if s.tall:
        icons.flask(inner.cv, (44, 14, 84, 54), "N")
        inner.text("menu.title", (4, 60, s.W - 4, 82), 16, bold=True)
        if view.code:
            inner.text(view.code, (4, 84, s.W - 4, 100), 14, raw=True)
        inner.text("idle.hint", (4, 104, s.W - 4, 120), 12)
    else:
        icons.flask(inner.cv, (8, 14, 34, 40), "N")
        inner.text("menu.title", (38, 12, s.W - 8, 28), 12, bold=True)
        if view.code:
            inner.text(view.code, (38, 28, s.W - 8, 40), 10, raw=True)
        inner.text("idle.hint", (2, 44, s.W - 2, 57), 9)
    picture = inner.image()
    if s.cv.colour:
        picture = picture.point(lambda value: value * 35 // 100)
    shifted = Image.new(picture.mode, picture.size, 0)
    shifted.paste(picture, (view.dx, view.dy))
    s.cv.image.paste(shifted)


def _cells(box: Box, slots: int, gap: int, count: int | None = None) -> list[Box]:
    """``count`` (default ``slots``) equal cells, centred in ``box``, each as wide as one of
    ``slots`` cells filling it."""
    x0, y0, x1, y1 = box
    count = slots if count is None else count
    cell = (x1 - x0 - gap * (slots - 1)) // slots
    left = x0 + (x1 - x0 - (cell * count + gap * (count - 1))) // 2
    return [(left + k * (cell + gap), y0, left + k * (cell + gap) + cell, y1) for k in range(count)]


def _letters(s: Screen, letters: list[str], box: Box, slots: int,
             current: int | None = None) -> None:
    """Big letters in ``slots`` equal cells; ``current`` cell inverted (the wheel)."""
    _draw_letters(s, letters, _cells(box, slots, 4 if s.tall else 3), current)


def _draw_letters(s: Screen, letters: list[str], cells: list[Box], current: int | None = None) -> None:
    size = min((fit(letter, cells[0], 48 if s.tall else 32, bold=True).size
                for letter in letters if letter.strip()), default=24)
    for k, letter in enumerate(letters):
        bx0, by0, bx1, by1 = cells[k]
        ink = "fg"
        if k == current:
            s.cv.draw.rectangle((bx0, by0, bx1 - 1, by1 - 1),
                                fill=s.cv.c("gold" if s.cv.colour else "fg"))
            ink = "bg"
        elif letter == "_":
            s.cv.draw.line((bx0 + 2, by1 - 2, bx1 - 3, by1 - 2), fill=s.cv.c("fg"),
                           width=2 if s.tall else 1)
            continue
        s.text(letter, cells[k], size, bold=True, raw=True, fill=ink)


def render_game_code(view: GameCodeView, s: Screen) -> None:
    top = s.title(view.title)
    bottom = s.keys(None, "continue")
    box = (2, top + 2, s.W - 2, bottom - 1)
    if not s.tall:
        _letters(s, list(view.code), box, len(view.code))
        return
    # a square panel: one row of 4-5 letters is limited by the width to a third of the height;
    # two rows (3 over 2 for a golem code) let each letter use half of it
    first = (len(view.code) + 1) // 2
    middle = (box[1] + box[3]) // 2
    cells = _cells((box[0], box[1], box[2], middle), first, 6)
    cells += _cells((box[0], middle, box[2], box[3]), first, 6, len(view.code) - first)
    _draw_letters(s, list(view.code), cells)


def render_code_entry(view: CodeEntryView, s: Screen) -> None:
    top = s.title(view.title)
    bottom = s.keys("delete", "next")
    if view.error:  # above the keys, which stay
        bottom = s.note(view.error, bottom)
    arrow = 5 if s.tall else 3
    letters = list(view.letters) + [view.current] + ["_"] * (view.length - len(view.letters) - 1)
    box = (6, top + 2 * arrow + 1, s.W - 6, bottom - 2 * arrow - 1)
    _letters(s, letters, box, view.length, current=len(view.letters))
    gap = 4 if s.tall else 3
    cell = (box[2] - box[0] - gap * (view.length - 1)) // view.length
    left = box[0] + (box[2] - box[0] - (cell * view.length + gap * (view.length - 1))) // 2
    cx = left + len(view.letters) * (cell + gap) + cell // 2
    icons.triangle(s.cv, (cx, top + arrow), arrow, up=True)
    icons.triangle(s.cv, (cx, bottom - arrow), arrow, up=False)


def render_scan_prompt(view: ScanPromptView, s: Screen) -> None:
    if view.status in SHELF_UNLEARNED:
        render_shelf_unlearned(view, s)
        return
    top = s.title("scan.two_cards" if view.cards == 2 else "scan.one_card")
    bottom = s.keys("back", "by_hand")
    status_h = 20 if s.tall else 11
    pad = 10 if s.tall else 2
    icons.cards(s.cv, (4, top + pad, s.W - 4, bottom - status_h - pad // 2), view.cards,
                view.status)
    s.text(f"scan.status.{view.status}", (2, bottom - status_h, s.W - 2, bottom),
           16 if s.tall else 10, bold=view.status != "nothing")


def render_shelf_unlearned(view: ScanPromptView, s: Screen) -> None:
    """The kit has not learned its empty shelf yet: clear it (it may be learning it now); ok captures it."""
    top = s.title("settings.shelf")
    bottom = s.keys("back", "capture")
    s.text(f"scan.status.{view.status}", (2, top + 1, s.W - 2, bottom), 18 if s.tall else 13,
           max_lines=6 if s.tall else 4)


def render_scan_confirm(view: ScanConfirmView, s: Screen) -> None:
    top = s.title("scan.again_title" if view.again else "scan.confirm_title", icon=icons.padlock)
    bottom = s.keys("rescan", "confirm")
    count = max(len(view.ingredients), 1)
    row = (bottom - top) // count
    for k, ingredient in enumerate(view.ingredients):
        s.text(f"ingredient.{ingredient}", (4, top + k * row, s.W - 4, top + (k + 1) * row),
               14 if s.tall else 10, align="left")


def render_ingredient_picker(view: IngredientPickerView, s: Screen) -> None:
    top = s.title(view.title, icon=icons.padlock if view.private else None)
    items = [(s.t(f"ingredient.{name}"), "✓" if name in view.chosen else None)
             for name in view.options]
    s.list(top + 1, items, view.selected)


def render_library_offer(view: LibraryOfferView, s: Screen) -> None:
    top = s.title("library.pick", icon=icons.padlock)
    s.list(top + 1, [(s.t(f"ingredient.{name}"), None) for name in view.ingredients],
           view.selected)


def render_choice(view: ChoiceView, s: Screen) -> None:
    top = s.title(view.title)
    options = view.resolved_options
    n = len(options)
    rows = 2 if s.tall and n > 4 else 1
    cols = -(-n // rows)
    cell = (s.W - 2) // cols
    icon_h = min(cell, 44) if s.tall else 24
    for k, option in enumerate(options):
        row, col = divmod(k, cols)
        in_row = min(cols, n - row * cols)
        left = (s.W - cell * in_row) // 2
        y = top + 2 + row * (icon_h + 2)
        box = (left + col * cell + 1, y, left + (col + 1) * cell - 1, y + icon_h)
        if k == view.selected:
            s.cv.draw.rectangle((box[0] - 1, box[1] - 1, box[2], box[3]),
                                outline=s.cv.c("gold" if s.cv.colour else "fg"))
        inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)
        if view.kind == "potion":
            icons.flask(s.cv, inner, option)
        else:
            cx, cy = (inner[0] + inner[2]) // 2, (inner[1] + inner[3]) // 2
            radius = min(inner[2] - inner[0], inner[3] - inner[1]) // 2 - 1
            icons.aspect(s.cv, (cx, cy), radius, option, None)
            s.text(f"colour.short.{option}", (cx - radius, cy - radius, cx + radius + 1,
                                              cy + radius + 1), 14 if s.tall else 10,
                   bold=True, fill="fg")
    icon_h = rows * (icon_h + 2) - 2
    chosen = options[view.selected]
    name = f"potion.{chosen}" if view.kind == "potion" else f"colour.{chosen}"
    fill = (chosen[0] if chosen != "N" else "N") if s.cv.colour else "fg"
    s.text(name, (2, top + icon_h + 4, s.W - 2, s.H - 1), 24 if s.tall else 16, bold=True,
           max_lines=2, fill=fill)


def _potion_fill(s: Screen, potion: str) -> str:
    return (potion[0] if potion != "N" else "N") if s.cv.colour else "fg"


def potion_sign(potion: str) -> Msg | None:
    """A signed potion's colour and sign in words ("Red +"): the mono screen has no colours."""
    if potion == "N":
        return None
    return Msg("potion.sign_of", (("colour", Msg(f"colour.{potion[0]}")),
                                  ("sign", Raw("+" if potion[1] == "+" else "−"))))


def render_potion(view: PotionView, s: Screen) -> None:
    top = s.title(view.title)
    s.result(top, lambda box: icons.flask(s.cv, box, view.potion), f"potion.{view.potion}",
             fill=_potion_fill(s, view.potion), detail=potion_sign(view.potion))


def render_sale(view: SaleView, s: Screen) -> None:
    top = s.title("sale.title")
    fills = {"exact": "ok", "sign": "gold", "neutral": "N", "wrong": "bad"}
    s.result(top, lambda box: icons.quality(s.cv, box, view.quality), f"quality.{view.quality}",
             fill=fills[view.quality] if s.cv.colour else "fg")


def _big_aspect(s: Screen, box: Box, colour: str, sign: str | None) -> None:
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    radius = min(box[2] - box[0], box[3] - box[1]) // 2 - 1
    icons.aspect(s.cv, (cx, cy), radius, colour, sign)


def render_debunk_sign(view: DebunkSignView, s: Screen) -> None:
    top = s.title("debunk.title")
    text = Msg("debunk.aspect", (("colour", Msg(f"colour.{view.colour}")),
                                 ("sign", Raw("+" if view.sign == "+" else "−"))))
    s.result(top, lambda box: _big_aspect(s, box, view.colour, view.sign), text,
             fill=view.colour if s.cv.colour else "fg")


def _yes_no(s: Screen, box: Box, yes: bool) -> None:
    (icons.check if yes else icons.cross)(s.cv, box)


def render_debunk_yes_no(view: DebunkYesNoView, s: Screen) -> None:
    top = s.title("debunk.title")
    question = Msg("debunk.makes", (("potion", Msg(f"potion.{view.potion}")),))
    q_h = 34 if s.tall else 20  # the question is half the fact: as large as the answer allows
    s.text(question, (2, top, s.W - 2, top + q_h), 18 if s.tall else 14, bold=True, max_lines=2,
           fill=_potion_fill(s, view.potion))
    s.result(top + q_h, lambda box: _yes_no(s, box, view.answer),
             "answer.yes" if view.answer else "answer.no")


def render_exhibition(view: ExhibitionView, s: Screen) -> None:
    top = s.title("exhibition.title")
    promised = Msg(f"potion.{view.potion}")
    result = "exhibition.success" if view.success else "exhibition.failure"
    if s.tall:
        s.text(promised, (2, top + 1, s.W - 2, top + 21), 18, bold=True, fill=_potion_fill(s, view.potion))
        _yes_no(s, (32, top + 24, 96, top + 72), view.success)
        s.text(result, (2, top + 76, s.W - 2, s.H - 2), 30, bold=True, max_lines=2, min_size=12)
    else:
        s.text(promised, (2, top, s.W - 2, top + 14), 12, bold=True)
        _yes_no(s, (4, top + 16, 34, s.H - 1), view.success)
        s.text(result, (38, top + 14, s.W - 1, s.H), 22, bold=True, max_lines=2, min_size=10)


def render_golem_test(view: GolemTestView, s: Screen) -> None:
    top = s.title("golem.title")
    chest = "golem.chest_glows" if view.chest else "golem.chest_dark"
    ears = "golem.ears_steam" if view.ears else "golem.ears_quiet"
    if s.tall:
        icons.golem(s.cv, (24, top + 1, 104, top + 65), view.chest, view.ears)
        mid = (top + 66 + s.H) // 2
        s.text(ears, (2, top + 66, s.W - 2, mid), 18, bold=view.ears)  # public: never dim
        s.text(chest, (2, mid, s.W - 2, s.H - 1), 18, bold=view.chest,
               fill="gold" if view.chest else "fg")
    else:
        icons.golem(s.cv, (0, top, 50, s.H), view.chest, view.ears)
        mid = (top + s.H) // 2
        s.text(ears, (52, top, s.W - 1, mid), 14, bold=view.ears, max_lines=2)
        s.text(chest, (52, mid, s.W - 1, s.H), 14, bold=view.chest, max_lines=2)


def render_golem_animation(view: GolemAnimationView, s: Screen) -> None:
    top = s.title("golem.animate_title")
    s.result(top, lambda box: icons.golem(s.cv, box, view.alive, False, alive=view.alive),
             "golem.alive" if view.alive else "golem.not_alive",
             fill="gold" if view.alive and s.cv.colour else "fg")  # a public result is never dim


def render_library_answer(view: LibraryAnswerView, s: Screen) -> None:
    """Private (004: the player looks alone): small, like the other private screens."""
    top = s.title("library.title", icon=icons.padlock)
    draw = icons.sun if view.library_class == "sun" else icons.moon
    icon = 24 if s.tall else 16
    y = top + (8 if s.tall else 3)
    draw(s.cv, (4, y, 4 + icon, y + icon))
    s.text(f"class.{view.library_class}", (icon + 8, y, s.W - 2, y + icon), 14 if s.tall else 10,
           align="left")


def history_line(entry: HistoryEntry) -> Msg:
    """The text of one public history entry (never which ingredients made a potion)."""
    def yes_no(flag: bool) -> Msg:
        return Msg("answer.yes" if flag else "answer.no")

    kind = entry.kind
    if kind == "potion":
        return Msg("history.potion", (("potion", Msg(f"potion.{entry.potion}")),))
    if kind == "sale":
        return Msg("history.sale", (("quality", Msg(f"quality.{entry.quality}")),))
    if kind == "debunk_sign":
        return Msg("history.debunk_sign", (
            ("colour", Msg(f"colour.short.{entry.colour}")),
            ("ingredient", Msg(f"ingredient.{entry.ingredient}")),
            ("sign", Raw("+" if entry.sign == "+" else "−")),
        ))
    if kind == "debunk_pair":
        return Msg("history.debunk_pair", (("answer", yes_no(entry.answer)),
                                           ("potion", Msg(f"potion.{entry.potion}"))))
    if kind == "debunk_variant":
        return Msg("history.debunk_variant", (("potion", Msg(f"potion.{entry.potion}")),))
    if kind == "exhibition":
        result = "exhibition.success" if entry.success else "exhibition.failure"
        return Msg("history.exhibition", (("potion", Msg(f"potion.{entry.potion}")), ("result", Msg(result))))
    if kind == "golem_test":
        key = {(True, True): "both", (True, False): "chest", (False, True): "ears",
               (False, False): "none"}[(entry.chest, entry.ears)]
        return Msg("history.golem_test", (("reactions", Msg(f"golem.react.{key}")),))
    result = "golem.alive" if entry.success else "golem.not_alive"
    return Msg("history.golem_animate", (("result", Msg(result)),))


#: lines one history entry may take ("Опровержение: Корень мандрагоры К+" takes two on 128 px)
HISTORY_LINES = 3


def render_history(view: HistoryView, s: Screen) -> None:
    top = s.title("history.title")
    if not view.entries:
        s.text("history.empty", (2, top, s.W - 2, s.H), 16 if s.tall else 11)
        return
    size = 13 if s.tall else 10
    line_h = 15 if s.tall else 11
    y = top + 1
    right = s.W - 7
    shown = 0
    for entry in view.entries[view.top:]:
        text = s.t(history_line(entry))
        # one line at the normal size, else two lines (shrinking if need be)
        # one size for every entry (a smaller one reads as another kind of line and left a gap
        # under it): a long entry takes the lines it needs, from the top
        fitted = fit(text, (2, y, right, y + HISTORY_LINES * line_h), size, min_size=size,
                     max_lines=HISTORY_LINES, align="left", valign="top")
        lines = len(fitted.lines)
        if y + lines * line_h > s.H:
            break
        draw_fitted(s.cv.draw, fitted, s.cv.c("fg"))
        y += lines * line_h + 1
        shown += 1
    if view.top > 0:
        icons.triangle(s.cv, (s.W - 4, top + 4), 3, up=True)
    if view.top + shown < len(view.entries):
        icons.triangle(s.cv, (s.W - 4, s.H - 4), 3, up=False)


def render_hold(view: HoldView, s: Screen) -> None:
    top = s.title(view.title)
    bar_h = 16 if s.tall else 10
    s.text("hold.hint", (2, top, s.W - 2, s.H - bar_h - 4), 20 if s.tall else 13, bold=True,
           max_lines=2)
    icons.progress(s.cv, (4, s.H - bar_h - 2, s.W - 4, s.H - 2), view.progress)


def render_confirm(view: ConfirmView, s: Screen) -> None:
    top = s.title(view.title)
    bottom = s.keys("no", "yes")
    s.text(view.question, (2, top + 1, s.W - 2, bottom), 16 if s.tall else 11,
           max_lines=6 if s.tall else 4)


def _page_title(s: Screen, title: Text, page: int, pages: int) -> int:
    return s.title(f"{s.t(title)} {page}/{pages}", raw=True)


def render_reveal_ingredient(view: RevealIngredientView, s: Screen) -> None:
    top = _page_title(s, "reveal.title", view.page, view.pages)
    name_h = 22 if s.tall else 12
    s.text(f"ingredient.{view.ingredient}", (2, top, s.W - 2, top + name_h),
           18 if s.tall else 11, bold=True)
    label_h = 14 if s.tall else 9
    _alchemical(s, view.alchemical, (0, top + name_h + 1, s.W, s.H - label_h - 1), labels=True)


def _alchemical(s: Screen, notation: str, box: Box, labels: bool = False) -> None:
    """An alchemical as the game draws it: three coloured aspects, large or small, with their signs
    (and under them the colours' initials, for the mono screen)."""
    x0, y0, x1, y1 = box
    step = (x1 - x0) // 3
    big = max(min((y1 - y0) // 2, step // 2) - 1, 2)
    small = max(big * 6 // 10, 1)
    cy = (y0 + y1) // 2
    for k, (colour, letter) in enumerate(zip("RGB", notation)):
        cx = x0 + step * k + step // 2
        radius = big if letter.isupper() else small
        icons.aspect(s.cv, (cx, cy), radius, colour, "+" if letter in "Pp" else "-")
        if labels:
            s.text(f"colour.short.{colour}", (cx - step // 2, y1 + 1, cx + step // 2, s.H),
                   12 if s.tall else 9, fill=colour if s.cv.colour else "fg")


def render_reveal_golem(view: RevealGolemView, s: Screen) -> None:
    top = _page_title(s, "reveal.golem", view.page, view.pages)
    parts = (("golem.chest", view.chest_colour, view.chest_large),
             ("golem.ears", view.ears_colour, view.ears_large))
    for k, (label, colour, large) in enumerate(parts):
        text = Msg("golem.aspect", (("colour", Msg(f"colour.{colour}")),
                                    ("size", Msg("size.large" if large else "size.small"))))
        if s.tall:
            row = 46  # a label line and up to two lines of words ("Красный, маленький")
            y0 = top + k * row
            big = 13
            radius = big if large else big * 6 // 10
            icons.aspect(s.cv, (s.W - big - 3, y0 + row // 2), radius, colour, None)
            s.text(label, (2, y0, s.W - 2 * big - 6, y0 + 16), 14, bold=True, align="left")
            s.text(text, (2, y0 + 16, s.W - 2 * big - 6, y0 + row - 1), 14, align="left",
                   fill=colour, max_lines=2)
        else:
            top = _reveal_golem_mono_row(s, top, label, text, colour, large)


def render_reveal_animators(view: RevealAnimatorsView, s: Screen) -> None:
    top = _page_title(s, "reveal.golem", view.page, view.pages)
    label_h = 22 if s.tall else 14
    s.text("golem.pair", (2, top, s.W - 2, top + label_h), 16 if s.tall else 11, bold=True,
           align="left", fill="gold" if s.cv.colour else "fg")
    row = (s.H - top - label_h) // 2
    for k, ingredient in enumerate(view.pair):
        y = top + label_h + k * row
        s.text(f"ingredient.{ingredient}", (2, y, s.W - 2, y + row), 18 if s.tall else 13, max_lines=2)


def render_reveal_all(view: RevealAllView, s: Screen) -> None:
    """All eight at once: two rows of four, each an ingredient's short name over its alchemical."""
    top = _page_title(s, "reveal.all", view.page, view.pages)
    cell_w = s.W // 4
    cell_h = (s.H - top) // 2
    name_h = 15 if s.tall else 11
    for index, (ingredient, notation) in enumerate(zip(INGREDIENTS, view.alchemicals)):
        x = (index % 4) * cell_w
        y = top + (index // 4) * cell_h
        s.text(f"ingredient.short.{ingredient}", (x + 1, y, x + cell_w - 1, y + name_h),
               12 if s.tall else 9)
        _alchemical(s, notation, (x + 1, y + name_h, x + cell_w - 1, y + cell_h - 1))


def _reveal_golem_mono_row(s: Screen, top: int, label: Text, text: Text, colour: str,
                           large: bool) -> int:
    """Chest or ears on 128x64: label, aspect circle and words; returns the next free row.

    The label takes the width it needs (labels differ fourfold between languages); one too
    long to share the row with the words ("Klatka piersiowa") gets a line of its own above them.
    """
    row = 13  # one 10 px line with the circle beside it; two parts and a 2-line pair fit 64 px
    words_w = font(MIN_SIZE).getlength(s.t(text))
    widths = [math.ceil(font(size, bold=True).getlength(s.t(label))) + 1
              for size in (10, MIN_SIZE)]
    inline = [w for w in widths if w + row + 5 + words_w <= s.W - 1]
    if inline:
        label_w = inline[0]
        s.text(label, (2, top, label_w + 2, top + row), 10, bold=True, align="left")
    else:
        s.text(label, (2, top, s.W - 2, top + 10), 9, bold=True, align="left")
        top, label_w = top + 10, 0
    radius = (row // 2 - 1) if large else (row // 3 - 1)
    icons.aspect(s.cv, (label_w + row // 2 + 3, top + row // 2), radius, colour, None)
    s.text(text, (label_w + row + 5, top, s.W - 1, top + row), 10, align="left")
    return top + row


#: what back and ok do at each step of enrolment (ui/settings.py CalibrationStep.press)
CALIBRATION_KEYS: dict[str, tuple[str, str]] = {"lay": ("back", "capture"), "ok": ("retake", "next"),
                                                "fail": ("back", "retry")}


#: the back's step may be skipped (a back the outlines cannot find on this shelf): back skips
CALIBRATION_BACK_KEYS: dict[str, tuple[str, str]] = {"lay": ("skip", "capture"), "ok": ("retake", "next"),
                                                     "fail": ("skip", "retry"), "face_up": ("skip", "retry")}


def render_calibration(view: CalibrationView, s: Screen) -> None:
    name = Msg(f"ingredient.{view.ingredient}")
    _calibration_step(s, view.step, view.index, view.total, CALIBRATION_KEYS[view.step], name,
                      Msg("calib.lay", (("ingredient", name),)))


def render_calibration_back(view: CalibrationBackView, s: Screen) -> None:
    _calibration_step(s, view.step, view.index, view.total, CALIBRATION_BACK_KEYS[view.step], "calib.back",
                      "calib.back_lay", "calib.back_face_up" if view.step == "face_up" else "calib.fail")


def _calibration_step(s: Screen, step: str, index: int, total: int, keys: tuple[str, str], name: Text,
                      lay: Text, failed: Text = "calib.fail") -> None:
    top = s.title(Msg("calib.title", (("index", index), ("total", total))))
    bottom = s.keys(*keys)
    if step == "lay":
        icon_box = (4, top + 4, 30 if not s.tall else 44, bottom - 3)
        icons.cards(s.cv, icon_box, 1, "nothing")
        s.text(lay, (icon_box[2] + 2, top, s.W - 2, bottom), 18 if s.tall else 12, max_lines=3)
    else:
        ok = step == "ok"
        icon_box = (2, top + 2, 40 if not s.tall else 50, bottom - 1)
        _yes_no(s, icon_box, ok)
        s.text(name, (icon_box[2] + 2, top, s.W - 2, (top + bottom) // 2), 16 if s.tall else 11,
               bold=True, max_lines=2)
        s.text("calib.ok" if ok else failed, (icon_box[2] + 2, (top + bottom) // 2, s.W - 2, bottom),
               14 if s.tall else 10, max_lines=2)


RENDERERS: dict[type, Callable[[Any, Screen], None]] = {
    MenuView: render_menu,
    SettingsView: render_settings,
    MessageView: render_message,
    IdleView: render_idle,
    GameCodeView: render_game_code,
    CodeEntryView: render_code_entry,
    ScanPromptView: render_scan_prompt,
    ScanConfirmView: render_scan_confirm,
    IngredientPickerView: render_ingredient_picker,
    LibraryOfferView: render_library_offer,
    ChoiceView: render_choice,
    PotionView: render_potion,
    SaleView: render_sale,
    DebunkSignView: render_debunk_sign,
    DebunkYesNoView: render_debunk_yes_no,
    ExhibitionView: render_exhibition,
    GolemTestView: render_golem_test,
    GolemAnimationView: render_golem_animation,
    LibraryAnswerView: render_library_answer,
    HistoryView: render_history,
    HoldView: render_hold,
    ConfirmView: render_confirm,
    RevealIngredientView: render_reveal_ingredient,
    RevealGolemView: render_reveal_golem,
    RevealAnimatorsView: render_reveal_animators,
    RevealAllView: render_reveal_all,
    CalibrationView: render_calibration,
    CalibrationBackView: render_calibration_back,
}


def render_view(view: object, size: tuple[int, int] = MONO, language: str = "en") -> Image.Image:
    """Draw ``view`` for a display of ``size`` in ``language``; picks the screen by view type."""
    try:
        renderer = RENDERERS[type(view)]
    except KeyError:
        raise TypeError(f"no screen for {type(view).__name__}: {view!r}") from None
    screen = Screen(size, language)
    renderer(view, screen)
    return screen.image()


def fits(view: object, language: str, sizes: tuple[tuple[int, int], ...] = (MONO, COLOUR)) -> bool:
    """Whether ``view`` can be drawn on every display size in ``language`` (to pick a shorter text)."""
    try:
        for size in sizes:
            render_view(view, size, language)
    except TextDoesNotFit:
        return False
    return True


render = render_view
"""Alias: ``render(view, size, language)``."""

