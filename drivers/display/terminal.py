"""Draw the screen in a terminal with Unicode block characters, fitted to the terminal's size.

Three ways to put pixels in character cells, every pixel kept: half blocks (1x2 pixels a cell:
128x64 in 128x32 cells), quadrant blocks (2x2: 128x64 in 64x32) and braille dots (2x4: 128x64 in
64x16, the size of an 80x24 terminal). ``TerminalWriter`` picks the finest the terminal holds,
with notes under the picture, and says so instead of a garbled picture when the terminal is too
small.
"""

from __future__ import annotations

import os
import textwrap
import threading
from collections.abc import Callable, Sequence
from typing import Literal, TextIO

from PIL import Image

UPPER, LOWER, FULL, EMPTY = "\u2580", "\u2584", "\u2588", " "
RESET = "\x1b[0m"
HOME = "\x1b[H"
CLEAR = "\x1b[2J"
CLEAR_LINE = "\x1b[K"
CLEAR_BELOW = "\x1b[J"
ENTER_SCREEN = "\x1b[?1049h\x1b[?25l"  # the alternate screen, cursor hidden: the shell's text stays
LEAVE_SCREEN = "\x1b[?25h\x1b[?1049l"

Blocks = Literal["half", "quadrant", "braille"]
BLOCK_MODES: tuple[Blocks, ...] = ("half", "quadrant", "braille")
"""Finest first. Every mode keeps every pixel: a cell shows 1x2, 2x2 or 2x4 of them."""

CELL_PIXELS: dict[str, tuple[tuple[int, int], ...]] = {
    # the (x, y) offsets a character covers, in the bit order of its glyphs
    "half": ((0, 0), (0, 1)),
    "quadrant": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "braille": ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3)),
}
CELL: dict[str, tuple[int, int]] = {"half": (1, 2), "quadrant": (2, 2), "braille": (2, 4)}
"""Pixels (columns, rows) one character covers in each block mode."""

HALVES = (EMPTY, UPPER, LOWER, FULL)
QUADRANTS = (" ", "\u2598", "\u259d", "\u2580", "\u2596", "\u258c", "\u259e", "\u259b",
             "\u2597", "\u259a", "\u2590", "\u259c", "\u2584", "\u2599", "\u259f", "\u2588")
BRAILLE = 0x2800  # U+2800 + the 8 dots' bits
REVERSE, NO_REVERSE = "\x1b[7m", "\x1b[27m"

RESIZE_POLL_SECONDS = 0.25
"""How often the writer looks for a resized terminal: a redraw within a quarter second feels
immediate, and a size query four times a second costs nothing."""


def glyph(blocks: Blocks, bits: int) -> str:
    """The character of ``blocks`` mode whose lit pixels are ``bits`` (in CELL_PIXELS order)."""
    if blocks == "half":
        return HALVES[bits]
    if blocks == "quadrant":
        return QUADRANTS[bits]
    return chr(BRAILLE + bits) if bits else EMPTY


def picture_cells(picture: tuple[int, int], blocks: Blocks) -> tuple[int, int]:
    """Columns and rows of characters that a picture of ``picture`` pixels takes."""
    (width, height), (cw, ch) = picture, CELL[blocks]
    return -(-width // cw), -(-height // ch)


def choose_blocks(picture: tuple[int, int], terminal: tuple[int, int],
                  footer_rows: int = 1) -> Blocks | None:
    """The finest block mode whose picture, and ``footer_rows`` lines below it, fit the terminal.

    >>> choose_blocks((128, 64), (128, 40)), choose_blocks((128, 64), (80, 40))
    ('half', 'quadrant')
    >>> choose_blocks((128, 64), (80, 24)), choose_blocks((128, 64), (60, 24))
    ('braille', None)
    """
    for blocks in BLOCK_MODES:
        columns, rows = picture_cells(picture, blocks)
        if columns <= terminal[0] and rows + footer_rows <= terminal[1]:
            return blocks
    return None


def image_to_terminal_text(image: Image.Image, *, color: bool | None = None,
                           threshold: int = 128, blocks: Blocks = "half") -> str:
    """The image as lines of block characters (``blocks``: see ``CELL``).

    Monochrome (the default for mode ``1`` and ``L`` images): a pixel is lit when its grey level
    is at least ``threshold``; trailing blanks are dropped; no escape codes, except that a braille
    line with more pixels lit than dark is drawn in reverse video (its dark pixels as dots). ``color`` (the
    default for RGB images) draws each cell with 24-bit ANSI colours, reset at each line end: in
    half blocks "▀" with the upper pixel as foreground and the lower as background; otherwise
    the cell's pixels split by brightness into a foreground and a background colour (their means).
    Rows and columns past the image's edge are dark.

    >>> from PIL import Image
    >>> image = Image.new("1", (3, 3))
    >>> for xy in [(0, 0), (1, 1), (2, 0), (2, 1), (0, 2)]: image.putpixel(xy, 1)
    >>> print(image_to_terminal_text(image))
    ▀▄█
    ▀
    >>> print(image_to_terminal_text(image, blocks="quadrant"))
    ▚▌
    ▘
    >>> print(image_to_terminal_text(image, blocks="braille"))
    ⠕⠃
    """
    if color is None:
        color = image.mode not in ("1", "L", "LA", "P", "I", "F")
    if blocks not in CELL:
        raise ValueError(f"blocks must be one of {', '.join(CELL)}, not {blocks!r}")
    if color:
        return _colour_text(image.convert("RGB"), blocks)
    return _mono_text(image.convert("L"), threshold, blocks)


def _mono_text(image: Image.Image, threshold: int, blocks: Blocks) -> str:
    width, height = image.size
    grey = image.tobytes()
    (cw, ch), offsets = CELL[blocks], CELL_PIXELS[blocks]

    def bits(x: int, y: int) -> int:
        return sum(1 << k for k, (dx, dy) in enumerate(offsets)
                   if x + dx < width and y + dy < height
                   and grey[(y + dy) * width + x + dx] >= threshold)

    lines = []
    for top in range(0, height, ch):
        cells = [bits(x, top) for x in range(0, width, cw)]
        if blocks == "braille" and sum(bin(b).count("1") for b in cells) > 4 * len(cells):
            # a line mostly lit (a highlighted row) in reverse video, its dark pixels as dots:
            # its text reads dark on light instead of drowning among lit dots
            lines.append(REVERSE + "".join(chr(BRAILLE + (~b & 0xFF)) for b in cells)
                         + NO_REVERSE)
        else:
            lines.append("".join(glyph(blocks, b) for b in cells).rstrip(EMPTY))
    return "\n".join(lines)


def _colour_text(image: Image.Image, blocks: Blocks) -> str:
    width, height = image.size
    data = image.tobytes()
    (cw, ch), offsets = CELL[blocks], CELL_PIXELS[blocks]

    def rgb(x: int, y: int) -> tuple[int, int, int]:
        if x >= width or y >= height:
            return (0, 0, 0)
        at = (y * width + x) * 3
        return data[at], data[at + 1], data[at + 2]

    def paint(fg: Sequence[int], bg: Sequence[int], char: str) -> str:
        return "\x1b[38;2;{};{};{}m\x1b[48;2;{};{};{}m{}".format(*fg, *bg, char)

    lines = []
    for top in range(0, height, ch):
        parts = []
        for x in range(0, width, cw):
            if blocks == "half":
                parts.append(paint(rgb(x, top), rgb(x, top + 1), UPPER))
                continue
            cell = [rgb(x + dx, top + dy) for dx, dy in offsets]
            light = [sum(pixel) for pixel in cell]
            middle = (max(light) + min(light)) / 2
            lit = [value > middle for value in light]
            on = [pixel for pixel, up in zip(cell, lit) if up] or cell
            off = [pixel for pixel, up in zip(cell, lit) if not up] or cell
            parts.append(paint(_mean(on), _mean(off),
                               glyph(blocks, sum(1 << k for k, up in enumerate(lit) if up))))
        lines.append("".join(parts) + RESET)
    return "\n".join(lines)


def _mean(pixels: Sequence[tuple[int, int, int]]) -> tuple[int, ...]:
    return tuple(sum(channel) // len(pixels) for channel in zip(*pixels))


def wrap_notes(notes: Sequence[str], columns: int) -> list[str]:
    """The footer's notes as lines of at most ``columns`` characters, each note on its own lines.

    Notes wrap at "  " (two spaces) between items; an item longer than a line wraps between
    words, and a word longer than a line is broken.
    """
    lines: list[str] = []
    for note in notes:
        current = ""
        for item in note.split("  "):
            candidate = f"{current}  {item}" if current else item
            if len(candidate) <= columns:
                current = candidate
                continue
            if current:
                lines.append(current)
            pieces = textwrap.wrap(item, columns) or [""]
            lines += pieces[:-1]
            current = pieces[-1]
        lines.append(current)
    return lines


def too_small_text(picture: tuple[int, int], terminal: tuple[int, int], footer_rows: int) -> str:
    """What the writer shows instead of a picture that does not fit the terminal."""
    half = picture_cells(picture, BLOCK_MODES[0])
    quarter = picture_cells(picture, BLOCK_MODES[-1])
    return (f"This terminal ({terminal[0]}x{terminal[1]}) is too small for the "
            f"{picture[0]}x{picture[1]} screen: make it at least "
            f"{quarter[0]}x{quarter[1] + footer_rows} (or {half[0]}x{half[1] + footer_rows} for "
            f"full detail). The kit keeps running; keys still work.")


def terminal_size(stream: TextIO) -> tuple[int, int] | None:
    """Columns and rows of the terminal behind ``stream``; None if it is not a terminal."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    if not os.isatty(fd):
        return None
    try:
        size = os.get_terminal_size(fd)
    except OSError:
        return None
    return size.columns, size.lines


class TerminalWriter:
    """A frame sink that redraws each frame in place on a text stream (the simulator's screen).

    ``color`` as for ``image_to_terminal_text``. ``in_place`` draws on the terminal's alternate
    screen, each frame from the top left, so nothing scrolls; the picture is fitted to the
    terminal's size (``size``: a function giving columns and rows; by default the size of the
    terminal behind ``stream``, re-read for each frame and watched for resizes). ``notes`` are
    lines shown under the picture as far as the terminal has room (the first one always: it is
    kept short, e.g. where the log goes); items in a note are separated by two spaces and wrap.
    Without a size (a pipe, a file), frames are drawn in half blocks one after the other.
    """

    def __init__(self, stream: TextIO, *, color: bool | None = None, in_place: bool = True,
                 size: Callable[[], tuple[int, int] | None] | None = None,
                 notes: Sequence[str] = (), farewell: str | None = None) -> None:
        self.stream = stream
        self.color = color
        self.in_place = in_place
        self.notes = tuple(notes)
        self.farewell = farewell
        self._size = size if size is not None else (lambda: terminal_size(stream))
        self._watch = size is None and in_place and terminal_size(stream) is not None
        self._first = True
        self._last: Image.Image | None = None
        self._drawn_for: tuple[int, int] | None = None
        self._lock = threading.Lock()  # the daemon's frames and the resize watcher both draw
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self.blocks: Blocks | None = None
        """The block mode of the last frame drawn; None if the terminal was too small."""

    def write(self, image: Image.Image) -> None:
        with self._lock:
            self._last = image.copy()
            self._draw(image)
        if self._watch and self._watcher is None:
            self._watcher = threading.Thread(target=self._watch_resizes, daemon=True,
                                             name="terminal-resize")
            self._watcher.start()

    def screen_text(self, image: Image.Image, size: tuple[int, int] | None) -> str:
        """Everything one frame draws, escape codes included (for a terminal of ``size``)."""
        if size is None:  # not a terminal: the picture in half blocks, then the notes
            self.blocks = "half"
            body = image_to_terminal_text(image, color=self.color).split("\n")
            body += [""] * (picture_cells(image.size, "half")[1] - len(body))
            body += list(self.notes)
            if not self.in_place:
                return "\n".join(body) + "\n"
            return HOME + "\n".join(line + CLEAR_LINE for line in body) + "\n"
        columns, rows = size
        self.blocks = choose_blocks(image.size, size)
        if self.blocks is None:
            body = wrap_notes([too_small_text(image.size, size, 1)], columns)
        else:
            body = image_to_terminal_text(image, color=self.color, blocks=self.blocks).split("\n")
            body += [""] * (picture_cells(image.size, self.blocks)[1] - len(body))
        body += wrap_notes(self.notes, columns)
        body = body[:rows]
        # no newline after the last line: on the bottom row it would scroll the picture up
        return HOME + "\n".join(line + CLEAR_LINE for line in body) + CLEAR_BELOW

    def _draw(self, image: Image.Image) -> None:
        size = self._size() if self.in_place else None
        text = self.screen_text(image, size)
        if self.in_place and self._first:
            text = (ENTER_SCREEN if size is not None else "") + CLEAR + text
        self._first = False
        self._drawn_for = size
        self.stream.write(text)
        self.stream.flush()

    def _watch_resizes(self) -> None:
        while not self._stop.wait(RESIZE_POLL_SECONDS):
            with self._lock:
                if self._last is not None and self._size() != self._drawn_for:
                    try:
                        self._draw(self._last)
                    except (OSError, ValueError):  # the terminal went away
                        return

    def close(self) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=2)
        with self._lock:
            if self.in_place and not self._first and self._drawn_for is not None:
                try:
                    self.stream.write(LEAVE_SCREEN + (f"{self.farewell}\n" if self.farewell else ""))
                    self.stream.flush()
                except (OSError, ValueError):
                    pass
            self._first = True

