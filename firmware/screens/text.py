"""Text on the OLED: message references, the shipped fonts, and fitting text into a box."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
MIN_SIZE = 9
"""Smallest font size (pixels per em) any text may shrink to; below it text is unreadable."""


class TextDoesNotFit(ValueError):
    """A text that does not fit its box even at the minimum font size."""

    def __init__(self, text: str, box: tuple[int, int, int, int], min_size: int, max_lines: int):
        self.text = text
        self.box = box
        width, height = box[2] - box[0], box[3] - box[1]
        super().__init__(
            f"text {text!r} does not fit box {box} ({width}x{height} px) "
            f"in {max_lines} line(s) at font size {min_size}"
        )


@dataclass(frozen=True)
class Msg:
    """A message id with ``str.format`` parameters, translated when drawn.

    Parameter values that are :class:`Msg` or :class:`Raw` are resolved too; plain values are
    inserted as they are (``Msg("calib.title", (("index", 3), ("total", 8)))``).
    """

    id: str
    params: tuple[tuple[str, object], ...] = ()


def msg(message_id: str, **params: object) -> Msg:
    """Shorthand: ``msg("calib.lay", ingredient=msg("ingredient.fern"))``."""
    return Msg(message_id, tuple(sorted(params.items())))


@dataclass(frozen=True)
class Raw:
    """Text shown as it is, never translated (a code, a number, a language's own name)."""

    text: str


Text = str | Msg | Raw
"""What views hold for text: a plain ``str`` is a message id; see :class:`Msg` and :class:`Raw`."""


def resolve(text: Text | object, gettext: Callable[[str], str]) -> str:
    """The final string of ``text`` in the language of ``gettext``."""
    if isinstance(text, Raw):
        return text.text
    if isinstance(text, Msg):
        values = {key: resolve(value, gettext) if isinstance(value, (Msg, Raw)) else str(value)
                  for key, value in text.params}
        return gettext(text.id).format(**values)
    if isinstance(text, str):
        return gettext(text)
    raise TypeError(f"not a text: {text!r}")


@functools.lru_cache(maxsize=None)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` pixels, loaded once."""
    return ImageFont.truetype(str(FONT_DIR / (BOLD if bold else REGULAR)), size)


def wrap(text: str, face: ImageFont.FreeTypeFont, width: int) -> list[str] | None:
    """Greedy word wrap of ``text`` to ``width`` pixels; None if a single word is too wide."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            candidate = f"{current} {word}" if current else word
            if face.getlength(candidate) <= width:
                current = candidate
                continue
            if not current or face.getlength(word) > width:
                return None
            lines.append(current)
            current = word
        lines.append(current)
    return lines


@dataclass(frozen=True)
class Fitted:
    """Text laid out in a box: its font, lines, and where each line's origin goes."""

    size: int
    bold: bool
    lines: tuple[str, ...]
    origins: tuple[tuple[int, int], ...]

    @property
    def face(self) -> ImageFont.FreeTypeFont:
        return font(self.size, self.bold)


def fit(
    text: str,
    box: tuple[int, int, int, int],
    max_size: int,
    *,
    min_size: int = MIN_SIZE,
    bold: bool = False,
    max_lines: int = 1,
    align: str = "center",
    valign: str = "middle",
) -> Fitted:
    """Lay ``text`` out in ``box`` (x0, y0, x1, y1, exclusive) at the largest size that fits.

    Tries sizes from ``max_size`` down to ``min_size``, wrapping on spaces into at most
    ``max_lines`` lines; raises :class:`TextDoesNotFit` when none fits.
    """
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    for size in range(max_size, min_size - 1, -1):
        face = font(size, bold)
        lines = wrap(text, face, width)
        if lines is None or len(lines) > max_lines:
            continue
        pitch = round(size * 1.15)
        boxes = [face.getbbox(line) for line in lines]
        # place lines by the font's cap height and descender so rows share a baseline, then
        # nudge so that accents and descenders actually drawn stay inside the box
        ref_top, ref_bottom = face.getbbox("H")[1], face.getbbox("g")[3]
        ink_top = min([b[1] for b in boxes if b[3] > b[1]] or [ref_top])
        ink_bottom = max([b[3] for b in boxes if b[3] > b[1]] or [ref_bottom])
        block = (len(lines) - 1) * pitch + (ref_bottom - ref_top)
        ink_block = (len(lines) - 1) * pitch + (ink_bottom - ink_top)
        if ink_block > height or any(b[2] - b[0] > width for b in boxes):
            continue
        if valign == "top":
            y = y0 - ref_top
        elif valign == "bottom":
            y = y1 - block - ref_top
        else:
            y = y0 + (height - block) // 2 - ref_top
        if y + ink_top < y0:
            y = y0 - ink_top
        last_ink_bottom = y + (len(lines) - 1) * pitch + ink_bottom
        if last_ink_bottom > y1:
            y -= last_ink_bottom - y1
        origins = []
        for index, (line, bbox) in enumerate(zip(lines, boxes)):
            line_width = bbox[2] - bbox[0]
            if align == "left":
                x = x0 - bbox[0]
            elif align == "right":
                x = x1 - line_width - bbox[0]
            else:
                x = x0 + (width - line_width) // 2 - bbox[0]
            origins.append((int(x), int(y + index * pitch)))
        return Fitted(size, bold, tuple(lines), tuple(origins))
    raise TextDoesNotFit(text, box, min_size, max_lines)


def draw_fitted(draw: ImageDraw.ImageDraw, fitted: Fitted,
                fill: int | tuple[int, int, int]) -> None:
    """Draw text laid out by :func:`fit`."""
    for line, origin in zip(fitted.lines, fitted.origins):
        draw.text(origin, line, font=fitted.face, fill=fill)
