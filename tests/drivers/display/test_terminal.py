"""The terminal screen: block modes that keep every pixel, fitted to the terminal, read back
through a real pty and a terminal emulator (pyte)."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import random
import re
import struct
import termios
import time

import pyte
import pytest
from PIL import Image

from drivers.display.terminal import (
    BRAILLE, CELL, CELL_PIXELS, HALVES, NO_REVERSE, QUADRANTS, REVERSE, TerminalWriter,
    choose_blocks,
    image_to_terminal_text, picture_cells, wrap_notes,
)

NOTES = ["log: /tmp/state/labkit.log",
         "up: w  down: s  ok: Enter  back: Backspace  hold back (home): h then Backspace"]


Cells = list[list[tuple[str, bool]]]
"""Rows of characters, each with whether it is drawn in reverse video."""


def cells_of_text(text: str) -> Cells:
    """The cells that lines of block characters (with reverse-video switches) draw."""
    rows: Cells = []
    for line in text.split("\n"):
        row, reverse = [], False
        for part in re.split(r"(\x1b\[7m|\x1b\[27m)", line):
            if part in (REVERSE, NO_REVERSE):
                reverse = part == REVERSE
            else:
                row += [(char, reverse) for char in part]
        rows.append(row)
    return rows


def cells_of_screen(shown: pyte.Screen, rows: int) -> Cells:
    return [[(shown.buffer[y][x].data, shown.buffer[y][x].reverse) for x in range(shown.columns)]
            for y in range(rows)]


def decode(cells: Cells | str, blocks: str, size: tuple[int, int]) -> Image.Image:
    """The monochrome picture that cells of block characters show (the inverse of drawing)."""
    if isinstance(cells, str):
        cells = cells_of_text(cells)
    image = Image.new("1", size)
    (cw, ch), offsets = CELL[blocks], CELL_PIXELS[blocks]
    for row, line in enumerate(cells):
        for column, (char, reverse) in enumerate(line):
            if blocks == "half":
                bits = HALVES.index(char)
            elif blocks == "quadrant":
                bits = QUADRANTS.index(char)
            else:
                bits = 0 if char == " " else ord(char) - BRAILLE
            if reverse:
                bits = ~bits & ((1 << len(offsets)) - 1)
            for k, (dx, dy) in enumerate(offsets):
                x, y = column * cw + dx, row * ch + dy
                if bits >> k & 1 and x < size[0] and y < size[1]:
                    image.putpixel((x, y), 1)
    return image


def random_picture(size: tuple[int, int], seed: int, lit: float = 0.4) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("1", size)
    image.putdata([rng.random() < lit for _ in range(size[0] * size[1])])
    return image


@pytest.mark.parametrize("lit", [0.4, 0.7])
@pytest.mark.parametrize("blocks", ["half", "quadrant", "braille"])
@pytest.mark.parametrize("size", [(128, 64), (7, 5), (1, 1)])
def test_every_block_mode_keeps_every_pixel(blocks: str, size: tuple[int, int], lit: float) -> None:
    image = random_picture(size, seed=size[0] * 1000 + size[1], lit=lit)
    text = image_to_terminal_text(image, blocks=blocks)  # type: ignore[arg-type]
    lines = text.split("\n")
    columns, rows = picture_cells(size, blocks)  # type: ignore[arg-type]
    assert len(lines) == rows and max(len(line) for line in cells_of_text(text)) <= columns
    assert decode(text, blocks, size).tobytes() == image.tobytes()


def test_a_mostly_lit_braille_line_is_drawn_in_reverse_video() -> None:
    image = Image.new("1", (6, 8), 1)  # a highlighted row with a dark letter in it
    image.putpixel((2, 1), 0)
    lines = image_to_terminal_text(image, blocks="braille").split("\n")
    assert lines[0] == REVERSE + chr(BRAILLE) + chr(BRAILLE + 0x02) + chr(BRAILLE) + NO_REVERSE
    assert lines[1] == REVERSE + chr(BRAILLE) * 3 + NO_REVERSE
    assert "\x1b" not in image_to_terminal_text(image, blocks="half")
    assert decode(image_to_terminal_text(image, blocks="braille"), "braille",
                  (6, 8)).tobytes() == image.tobytes()


def test_colour_cells_split_into_a_bright_and_a_dark_colour() -> None:
    image = Image.new("RGB", (2, 4), (0, 0, 40))
    image.putpixel((0, 0), (250, 200, 0))
    image.putpixel((1, 3), (250, 200, 0))
    text = image_to_terminal_text(image, blocks="braille")
    assert text == "\x1b[38;2;250;200;0m\x1b[48;2;0;0;40m" + chr(BRAILLE + 0x01 + 0x80) + "\x1b[0m"
    with pytest.raises(ValueError, match="blocks must be one of"):
        image_to_terminal_text(image, blocks="sixel")  # type: ignore[arg-type]


@pytest.mark.parametrize(("picture", "terminal", "blocks"), [
    ((128, 64), (128, 40), "half"),       # 128x32 cells
    ((128, 64), (128, 33), "half"),
    ((128, 64), (128, 32), "braille"),    # no row left for the log line
    ((128, 64), (80, 40), "quadrant"),    # 64x32 cells
    ((128, 64), (80, 24), "braille"),     # 64x16 cells
    ((128, 64), (64, 17), "braille"),
    ((128, 64), (63, 24), None),
    ((128, 64), (80, 16), None),
    ((128, 128), (128, 40), "braille"),   # the colour panel: 64x32 cells
    ((128, 128), (80, 24), None),
])
def test_the_finest_mode_that_fits_is_chosen(picture: tuple[int, int], terminal: tuple[int, int],
                                             blocks: str | None) -> None:
    assert choose_blocks(picture, terminal) == blocks


def test_notes_wrap_between_items_and_never_exceed_the_width() -> None:
    lines = wrap_notes(NOTES, 40)
    assert lines[0] == "log: /tmp/state/labkit.log"
    assert all(len(line) <= 40 for line in lines)
    assert "hold back (home): h then Backspace" in lines
    assert wrap_notes(["x" * 50], 20) == ["x" * 20, "x" * 20, "x" * 10]


def screen(writer_output: str, columns: int, rows: int) -> pyte.Screen:
    emulated = pyte.Screen(columns, rows)
    pyte.Stream(emulated).feed(writer_output)
    return emulated


@pytest.mark.parametrize(("columns", "rows", "blocks"), [
    (80, 24, "braille"), (128, 40, "half"), (100, 40, "quadrant"),
    (80, 18, "braille"),  # picture and notes fill every row: a newline after the last would scroll
])
def test_a_frame_fits_the_terminal_and_nothing_scrolls(columns: int, rows: int, blocks: str) -> None:
    stream = io.StringIO()
    writer = TerminalWriter(stream, size=lambda: (columns, rows), notes=NOTES)
    image = random_picture((128, 64), seed=7, lit=0.55)  # some braille lines in reverse video
    writer.write(image)
    writer.write(image)  # a second frame over the first
    assert writer.blocks == blocks
    shown = screen(stream.getvalue().replace("\n", "\r\n"), columns, rows)
    picture_rows = picture_cells((128, 64), blocks)[1]  # type: ignore[arg-type]
    assert decode(cells_of_screen(shown, picture_rows), blocks, (128, 64)).tobytes() == \
        image.tobytes()  # from the top row on
    below = [line.rstrip() for line in shown.display[picture_rows:]]
    assert below[0] == NOTES[0]
    assert any("hold back (home): h then Backspace" in line for line in below)


def test_a_terminal_too_small_is_told_so() -> None:
    stream = io.StringIO()
    writer = TerminalWriter(stream, size=lambda: (50, 12), notes=NOTES)
    writer.write(random_picture((128, 64), seed=1))
    assert writer.blocks is None
    shown = "\n".join(line.rstrip() for line in screen(
        stream.getvalue().replace("\n", "\r\n"), 50, 12).display)
    assert "too small" in shown and "50x12" in shown and "64x17" in shown
    assert all(char not in shown for char in (HALVES[3], chr(BRAILLE + 0xFF)))
    assert "log: /tmp/state/labkit.log" in shown


def set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def read_until(fd: int, emulated: pyte.Screen, stream: pyte.ByteStream, done, timeout=5.0) -> None:
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        import select

        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            stream.feed(os.read(fd, 65536))
    assert done(), "\n".join(emulated.display)


def test_through_a_pty_the_picture_follows_a_resize() -> None:
    master, slave = pty.openpty()
    set_size(slave, 80, 24)
    with open(slave, "w", encoding="utf-8", closefd=True) as terminal:
        writer = TerminalWriter(terminal, notes=NOTES)
        emulated = pyte.Screen(80, 24)
        feed = pyte.ByteStream(emulated)
        image = random_picture((128, 64), seed=3)
        writer.write(image)
        read_until(master, emulated, feed, lambda: NOTES[0] in emulated.display[16])
        assert writer.blocks == "braille"
        assert decode(cells_of_screen(emulated, 16), "braille", (128, 64)).tobytes() == \
            image.tobytes()
        set_size(slave, 128, 40)  # the writer notices by itself and redraws the last frame
        emulated.resize(40, 128)
        read_until(master, emulated, feed, lambda: NOTES[0] in emulated.display[32])
        assert writer.blocks == "half"
        assert decode(cells_of_screen(emulated, 32), "half", (128, 64)).tobytes() == \
            image.tobytes()
        writer.close()
    os.close(master)
