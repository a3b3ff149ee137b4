"""Draw the screen in a terminal with Unicode half blocks, two pixel rows per text line."""

from __future__ import annotations

from typing import TextIO

from PIL import Image

UPPER, LOWER, FULL, EMPTY = "\u2580", "\u2584", "\u2588", " "
RESET = "\x1b[0m"
HOME = "\x1b[H"
CLEAR = "\x1b[2J"


def image_to_terminal_text(image: Image.Image, *, color: bool | None = None,
                           threshold: int = 128) -> str:
    """The image as lines of half-block characters, each covering two pixel rows.

    Monochrome (the default for mode ``1`` and ``L`` images) uses no escape codes: a pixel is lit
    when its grey level is at least ``threshold``, and each character is one of " ", "▀", "▄", "█".
    ``color`` (the default for RGB images) draws "▀" with 24-bit ANSI colours: foreground the
    upper pixel, background the lower, reset at each line end. An odd last row is padded dark.

    >>> from PIL import Image
    >>> image = Image.new("1", (3, 3))
    >>> for xy in [(0, 0), (1, 1), (2, 0), (2, 1), (0, 2)]: image.putpixel(xy, 1)
    >>> print(image_to_terminal_text(image))
    ▀▄█
    ▀
    """
    if color is None:
        color = image.mode not in ("1", "L", "LA", "P", "I", "F")
    width, height = image.size
    if color:
        data = image.convert("RGB").tobytes()

        def rgb(x: int, y: int) -> bytes:
            return data[(y * width + x) * 3:(y * width + x) * 3 + 3] if y < height else b"\0\0\0"

        lines = []
        for top in range(0, height, 2):
            parts = []
            for x in range(width):
                parts.append("\x1b[38;2;{};{};{}m\x1b[48;2;{};{};{}m{}".format(
                    *rgb(x, top), *rgb(x, top + 1), UPPER))
            lines.append("".join(parts) + RESET)
        return "\n".join(lines)
    grey = image.convert("L").tobytes()
    glyphs = {(False, False): EMPTY, (True, False): UPPER, (False, True): LOWER, (True, True): FULL}
    lines = []
    for top in range(0, height, 2):
        row = "".join(
            glyphs[(grey[top * width + x] >= threshold,
                    top + 1 < height and grey[(top + 1) * width + x] >= threshold)]
            for x in range(width))
        lines.append(row.rstrip(EMPTY))
    return "\n".join(lines)


class TerminalWriter:
    """A frame sink that redraws each frame in place on a text stream (the simulator's screen).

    ``color`` as for ``image_to_terminal_text``; ``in_place`` moves the cursor home before each
    frame (and clears the terminal before the first) so the screen does not scroll.
    """

    def __init__(self, stream: TextIO, *, color: bool | None = None,
                 in_place: bool = True) -> None:
        self.stream = stream
        self.color = color
        self.in_place = in_place
        self._first = True

    def write(self, image: Image.Image) -> None:
        text = image_to_terminal_text(image, color=self.color)
        prefix = ""
        if self.in_place:
            prefix = (CLEAR if self._first else "") + HOME
        self._first = False
        height = (image.size[1] + 1) // 2
        # Pad every line so a shorter frame fully overwrites a longer one drawn before it.
        lines = text.split("\n") + [""] * (height - text.count("\n") - 1)
        body = "\n".join(line + "\x1b[K" if self.in_place else line for line in lines)
        self.stream.write(prefix + body + "\n")
        self.stream.flush()

    def close(self) -> None:
        pass
