"""Icons drawn with PIL primitives into a box, for both the monochrome and the colour OLED.

Every function takes a :class:`Canvas` and a box ``(x0, y0, x1, y1)`` (exclusive) and scales to it.
On the monochrome screen colours collapse to "lit"; shapes and signs carry the meaning.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

Box = tuple[int, int, int, int]
Ink = int | tuple[int, int, int]
"""A fill value: 0/1 on the monochrome image, an RGB triple on the colour one."""

PALETTE = {
    "fg": (255, 255, 255),
    "bg": (0, 0, 0),
    "dim": (170, 170, 170),  # hints and notes: grey, yet readable on an OLED in a lit room (160 and up)
    "bar": (30, 40, 90),
    "R": (235, 45, 45),
    "G": (45, 200, 70),
    "B": (70, 120, 255),
    "N": (150, 150, 150),
    "gold": (255, 200, 60),
    "ok": (60, 220, 90),
    "bad": (240, 60, 60),
}


@dataclass
class Canvas:
    """An image being drawn: its draw handle, size and whether it has colours."""

    image: Image.Image
    draw: ImageDraw.ImageDraw

    @classmethod
    def new(cls, size: tuple[int, int], mode: str) -> Canvas:
        image = Image.new(mode, size, 0)
        return cls(image, ImageDraw.Draw(image))

    @property
    def colour(self) -> bool:
        return self.image.mode == "RGB"

    @property
    def width(self) -> int:
        return self.image.width

    @property
    def height(self) -> int:
        return self.image.height

    @property
    def tall(self) -> bool:
        return self.image.height >= 128

    def c(self, name: str) -> Ink:
        """Fill value for a palette name: the RGB colour, or lit/unlit on the monochrome screen."""
        if not self.colour:
            return 0 if name == "bg" else 1
        return PALETTE[name]


def _square(box: Box) -> tuple[int, int, int]:
    """Centre and half side of the largest square in ``box``."""
    x0, y0, x1, y1 = box
    side = min(x1 - x0, y1 - y0)
    return (x0 + x1) // 2, (y0 + y1) // 2, side // 2


def sign(cv: Canvas, box: Box, which: str, fill: str = "fg") -> None:
    """A thick plus or minus filling the square of ``box``."""
    cx, cy, half = _square(box)
    arm = max(half - 1, 2)
    thick = max(half // 3, 1)
    cv.draw.rectangle((cx - arm, cy - thick // 2 - thick % 2 + 1, cx + arm, cy + thick // 2),
                      fill=cv.c(fill))
    if which == "+":
        cv.draw.rectangle((cx - thick // 2 - thick % 2 + 1, cy - arm, cx + thick // 2, cy + arm),
                          fill=cv.c(fill))


def flask(cv: Canvas, box: Box, potion: str) -> None:
    """A round-bottomed flask: filled with the potion's colour (colour OLED), its sign inside."""
    cx, cy, half = _square(box)
    r = half * 7 // 10
    body = (cx - r, cy + half - 2 * r, cx + r, cy + half)
    neck_w = max(r // 3, 2)
    neck_top = cy - half
    lip = max(neck_w // 2, 1)
    width = max(half // 10, 1)
    colour = potion[0] if potion != "N" else "N"
    if cv.colour:
        cv.draw.ellipse(body, fill=cv.c(colour))
        cv.draw.rectangle((cx - neck_w, neck_top + 2, cx + neck_w, body[1] + r // 2),
                          fill=cv.c(colour))
        cv.draw.ellipse(body, outline=cv.c("fg"), width=width)
        cv.draw.rectangle((cx - neck_w - lip, neck_top, cx + neck_w + lip, neck_top + width + 1),
                          fill=cv.c("fg"))
    else:
        cv.draw.ellipse(body, outline=1, width=width)
        cv.draw.rectangle((cx - neck_w, neck_top + 1, cx + neck_w, body[1] + width + 1), fill=0)
        cv.draw.line((cx - neck_w, neck_top + 1, cx - neck_w, body[1] + width), fill=1, width=width)
        cv.draw.line((cx + neck_w, neck_top + 1, cx + neck_w, body[1] + width), fill=1, width=width)
        cv.draw.rectangle((cx - neck_w - lip, neck_top, cx + neck_w + lip, neck_top + width),
                          fill=1)
    inner = (cx - r * 6 // 10, cy + half - r - r * 6 // 10, cx + r * 6 // 10,
             cy + half - r + r * 6 // 10)
    if potion == "N":
        # neutral: a few bubbles, nothing that reads as a sign
        b = max(r // 6, 1)
        for bx, by in ((-r // 3, r // 5), (r // 3, r // 3), (0, -r // 4)):
            x, y = cx + bx, cy + half - r + by
            cv.draw.ellipse((x - b, y - b, x + b, y + b), fill=cv.c("fg"))
    else:
        sign(cv, inner, potion[1], "fg")


def check(cv: Canvas, box: Box, fill: str = "ok") -> None:
    """A thick tick."""
    cx, cy, half = _square(box)
    width = max(half // 4, 2)
    cv.draw.line((cx - half + width, cy, cx - half // 3, cy + half * 2 // 3,
                  cx + half - width // 2, cy - half * 2 // 3), fill=cv.c(fill), width=width,
                 joint="curve")


def cross(cv: Canvas, box: Box, fill: str = "bad") -> None:
    """A thick X."""
    cx, cy, half = _square(box)
    width = max(half // 4, 2)
    arm = half * 3 // 4
    cv.draw.line((cx - arm, cy - arm, cx + arm, cy + arm), fill=cv.c(fill), width=width)
    cv.draw.line((cx - arm, cy + arm, cx + arm, cy - arm), fill=cv.c(fill), width=width)


def quality(cv: Canvas, box: Box, level: str) -> None:
    """Sale quality icons: exact = target, sign = plus over minus, neutral = hollow, wrong = X."""
    cx, cy, half = _square(box)
    width = max(half // 7, 1)
    if level == "exact":
        cv.draw.ellipse((cx - half, cy - half, cx + half, cy + half), outline=cv.c("ok"),
                        width=width)
        inner = half * 5 // 10
        cv.draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill=cv.c("ok"))
    elif level == "sign":
        sign(cv, (cx - half, cy - half, cx + half, cy + 1), "+", "gold")
        sign(cv, (cx - half, cy + 1, cx + half, cy + half + 1), "-", "gold")
    elif level == "neutral":
        cv.draw.ellipse((cx - half * 3 // 4, cy - half * 3 // 4, cx + half * 3 // 4,
                         cy + half * 3 // 4), outline=cv.c("N"), width=width)
    else:
        cross(cv, box, "bad")


def sun(cv: Canvas, box: Box) -> None:
    """A disc with eight rays."""
    cx, cy, half = _square(box)
    r = half * 5 // 10
    width = max(half // 8, 1)
    for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
        cv.draw.line((cx + dx * (r + 2 * width), cy + dy * (r + 2 * width), cx + dx * half,
                      cy + dy * half), fill=cv.c("gold"), width=width)
    d = (half * 7) // 10
    d0 = (r + 2 * width) * 7 // 10
    for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        cv.draw.line((cx + dx * d0, cy + dy * d0, cx + dx * d, cy + dy * d), fill=cv.c("gold"),
                     width=width)
    cv.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=cv.c("gold"))


def moon(cv: Canvas, box: Box) -> None:
    """A crescent."""
    cx, cy, half = _square(box)
    r = half * 9 // 10
    cv.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=cv.c("fg"))
    shift = r * 6 // 10
    cv.draw.ellipse((cx - r + shift, cy - r - shift // 3, cx + r + shift, cy + r - shift // 3),
                    fill=cv.c("bg"))


def aspect(cv: Canvas, centre: tuple[int, int], radius: int, colour: str,
           which: str | None) -> None:
    """One aspect circle: its colour, its sign inside (None: no sign, e.g. for the golem)."""
    cx, cy = centre
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    if cv.colour:
        cv.draw.ellipse(box, fill=cv.c(colour))
        ink = "fg"
    else:
        cv.draw.ellipse(box, outline=1, width=1 if radius < 10 else 2)
        ink = "fg"
    if which:
        pad = max(radius * 4 // 10, 2)
        sign(cv, (cx - radius + pad, cy - radius + pad, cx + radius - pad + 1,
                  cy + radius - pad + 1), which, ink)


def golem(cv: Canvas, box: Box, chest: bool, ears: bool, alive: bool | None = None) -> None:
    """The golem: head with ears, body with a chest disc; glow and steam as reactions.

    Proportions follow the box height: steam above the ears (top fifth), head, body, legs.
    ``alive`` (animation result): True raises the arms and lights the eyes, False draws it grey.
    """
    x0, y0, x1, y1 = box
    h = y1 - y0
    cx = (x0 + x1) // 2

    def at(fraction: float) -> int:
        return y0 + round(h * fraction)

    u = max(h // 20, 1)
    ink = cv.c("dim" if alive is False else "fg")
    line = max(h // 40, 1)
    # head
    head_half = max(h * 17 // 100, 3)
    head_top, head_bottom = at(0.20), at(0.44)
    cv.draw.rectangle((cx - head_half, head_top, cx + head_half, head_bottom), outline=ink,
                      width=line)
    eye = max(u // 2, 1)
    eye_y = (head_top * 3 + head_bottom * 2) // 5
    eye_ink = cv.c("gold") if alive is True and cv.colour else ink
    for ex in (cx - head_half // 2, cx + head_half // 2):
        cv.draw.rectangle((ex - eye, eye_y - eye, ex + eye, eye_y + eye), fill=eye_ink)
    # ears, and steam rising from them
    ear_top, ear_bottom = at(0.24), at(0.38)
    ear_w = max(u * 3 // 2, 2)
    for side in (-1, 1):
        inner = cx + side * (head_half + 1)
        outer = inner + side * ear_w
        cv.draw.rectangle((min(inner, outer), ear_top, max(inner, outer), ear_bottom), fill=ink)
        if ears:
            for k in range(2):
                bx = outer + side * (k * 2 * u)
                pts = [(bx + side * (j % 2) * u, ear_top - u - j * u - k * u) for j in range(4)]
                pts = [(x, y) for x, y in pts if y >= y0]
                if len(pts) > 1:
                    cv.draw.line(pts, fill=cv.c("fg"), width=line)
    # body
    body_half = max(h * 27 // 100, 5)
    body_top, body_bottom = at(0.46), at(0.82)
    cv.draw.rectangle((cx - body_half, body_top, cx + body_half, body_bottom), outline=ink,
                      width=line)
    # arms
    arm_w = max(u * 2, 2)
    for side in (-1, 1):
        inner = cx + side * (body_half + 1 + line)
        outer = inner + side * arm_w
        if alive is True:
            top, bottom = at(0.24), at(0.62)
        else:
            top, bottom = body_top + u, at(0.74)
        cv.draw.rectangle((min(inner, outer), top, max(inner, outer), bottom), fill=ink)
    # legs
    for side in (-1, 1):
        inner = cx + side * max(u, 1)
        outer = cx + side * (body_half - u)
        cv.draw.rectangle((min(inner, outer), body_bottom + 1, max(inner, outer), y1 - 1),
                          fill=ink)
    # chest
    cy = (body_top + body_bottom) // 2
    r = max(h * 9 // 100, 3)
    if chest:
        glow = cv.c("gold")
        cv.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=glow)
        reach = r + max(u * 3 // 2, 2)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if body_half > reach:
                cv.draw.line((cx + dx * (r + 1), cy + dy * (r + 1), cx + dx * reach,
                              cy + dy * reach), fill=glow, width=line)
    else:
        cv.draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=line)


def cards(cv: Canvas, box: Box, count: int, status: str) -> None:
    """Card outlines to lay (portrait), with corner dots; filled dots while reading."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    w = h * 2 // 3
    gap = max(w // 4, 3)
    if count * w + (count - 1) * gap > x1 - x0:
        # width-limited: shrink the cards and centre them vertically
        w = (x1 - x0 - (count - 1) * gap) // count
        h = w * 3 // 2
        y0 = (y0 + y1 - h) // 2
        y1 = y0 + h
    total = count * w + (count - 1) * gap
    left = (x0 + x1 - total) // 2
    for k in range(count):
        cx0 = left + k * (w + gap)
        if status == "adjust":
            # tilted a little: the reader sees them but cannot read yet
            off = max(h // 10, 2) * (1 if k else -1)
            pts = [(cx0 + off, y0), (cx0 + w + off, y0 + 2), (cx0 + w - off, y1 - 1),
                   (cx0 - off, y1 - 3)]
            cv.draw.polygon(pts, outline=cv.c("fg"))
        else:
            cv.draw.rectangle((cx0, y0, cx0 + w - 1, y1 - 1), outline=cv.c("fg"),
                              width=1 if h < 40 else 2)
        if status == "reading":
            d = max(h // 14, 1)
            for dx, dy in ((3 * d, 3 * d), (w - 1 - 3 * d, 3 * d), (w // 2, h - 1 - 3 * d)):
                cv.draw.ellipse((cx0 + dx - d, y0 + dy - d, cx0 + dx + d, y0 + dy + d),
                                fill=cv.c("gold"))


def progress(cv: Canvas, box: Box, fraction: float) -> None:
    """An outlined bar filled to ``fraction``."""
    x0, y0, x1, y1 = box
    cv.draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=cv.c("fg"))
    inner = int((x1 - x0 - 4) * fraction + 0.5)
    if inner > 0:
        cv.draw.rectangle((x0 + 2, y0 + 2, x0 + 1 + inner, y1 - 3), fill=cv.c("gold"))


def triangle(cv: Canvas, centre: tuple[int, int], half: int, up: bool, fill: str = "fg") -> None:
    """A small arrow head pointing up or down (scroll marks, letter wheel)."""
    cx, cy = centre
    if up:
        pts = [(cx - half, cy + half // 2), (cx + half, cy + half // 2), (cx, cy - half // 2)]
    else:
        pts = [(cx - half, cy - half // 2), (cx + half, cy - half // 2), (cx, cy + half // 2)]
    cv.draw.polygon(pts, fill=cv.c(fill))


def warning(cv: Canvas, box: Box) -> None:
    """A triangle with an exclamation mark."""
    cx, cy, half = _square(box)
    cv.draw.polygon([(cx, cy - half), (cx + half, cy + half - 1), (cx - half, cy + half - 1)],
                    fill=cv.c("gold"))
    w = max(half // 5, 1)
    cv.draw.rectangle((cx - w // 2, cy - half // 3, cx + (w - 1) // 2 + (w == 1 and 0), cy + half // 3),
                      fill=cv.c("bg"))
    cv.draw.rectangle((cx - w // 2, cy + half // 2, cx + (w - 1) // 2, cy + half // 2 + w),
                      fill=cv.c("bg"))


def padlock(cv: Canvas, box: Box) -> None:
    """A closed padlock: the sign of a private screen (turn it to you, the others look away)."""
    cx, cy, half = _square(box)
    body_top = cy - half // 4
    cv.draw.rectangle((cx - half + 1, body_top, cx + half - 1, cy + half - 1), fill=cv.c("fg"))
    shackle = max(half - 3, 2)
    cv.draw.arc((cx - shackle, cy - half, cx + shackle, body_top + shackle), 180, 360,
                fill=cv.c("fg"), width=max(1, half // 4))
    cv.draw.line((cx - shackle, body_top - 1, cx - shackle, (cy - half + body_top + shackle) // 2),
                 fill=cv.c("fg"), width=max(1, half // 4))
    cv.draw.line((cx + shackle, body_top - 1, cx + shackle, (cy - half + body_top + shackle) // 2),
                 fill=cv.c("fg"), width=max(1, half // 4))
