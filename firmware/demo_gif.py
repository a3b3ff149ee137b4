"""One captioned GIF per flow of a simulator script, for the README.

    labkit run --simulate --headless --state-dir /tmp/demo --frames-dir /tmp/frames \
        --script firmware/scripts/walkthrough.txt
    python -m firmware.demo_gif /tmp/frames docs/flows

With ``--frames-dir`` and ``--script`` the simulator writes ``script.tsv`` beside the frames
(:class:`ScriptTrace`): for each action, the frames it drew and the view it left. Each section of
the script (a comment line opening a paragraph) becomes a GIF: the screen at its start, then each
action's frames under a caption strip naming the button pressed or the cards laid. A result is
held :data:`RESULT_MS`; frames an action passes through (the hold bar, the reading) go by quickly,
a few of them only. ``index.md`` lists the GIFs under their section titles.
"""

from __future__ import annotations

import csv
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from drivers.display.frames import frame_path, last_frame_number
from firmware.screens.text import font, wrap
from firmware.script import ScriptStep

REMAKE = (
    ".venv/bin/labkit run --simulate --headless --state-dir /tmp/demo --frames-dir /tmp/frames "
    "--script firmware/scripts/walkthrough.txt",
    ".venv/bin/python -m firmware.demo_gif /tmp/frames docs/flows",
)
"""The commands that make ``docs/flows`` again (from a fresh state and frames directory)."""

TRACE_NAME = "script.tsv"
TRACE_COLUMNS = ("before", "after", "line", "section", "action", "note", "view")

SCALE = 3
"""Panel pixels to GIF pixels: 128x64 becomes 384x192, about a phone screen's width in the README."""
RESULT_MS = 2000
"""How long a result stays up: long enough to read a potion, its colour and sign, aloud."""
STEP_MS = 1000
"""How long any other screen an action leaves stays up: a menu line or a prompt."""
PASSING_MS = 200
"""Each frame an action passes through on its way (the hold bar filling, the reader's progress)."""
PASSING_FRAMES = 4
"""At most this many of those passing frames are kept, evenly spread: the bar is seen to fill."""

RESULT_VIEWS = frozenset({
    "PotionView", "SaleView", "DebunkSignView", "DebunkYesNoView", "ExhibitionView",
    "GolemTestView", "GolemAnimationView", "LibraryAnswerView", "RevealIngredientView",
    "RevealGolemView", "RevealAnimatorsView", "RevealAllView", "GameCodeView",
})
"""The screens that answer the table; the names of ``firmware.screens.views`` (a test checks)."""

TITLE_SIZE, ACTION_SIZE = 14, 17
TITLE_LINES = 2
STRIP_PAD = 6
BACKGROUND, TITLE_INK, ACTION_INK, NOTE_INK = (24, 24, 28), (170, 170, 180), (255, 255, 255), (150, 210, 255)


def describe_action(verb: str, words: tuple[str, ...]) -> str:
    """The caption for an action: what the player did with the buttons or the shelf.

    >>> describe_action("shelf", ("fern", "toad"))
    'lay fern + toad'
    >>> describe_action("down", ("ok", "back"))
    'hold ok + back'
    """
    both = " + ".join(words)
    if verb == "shelf":
        if words == ("clear",):
            return "clear the shelf"
        if words == ("unreadable",):
            return "lay a card the camera cannot read"
        return f"lay {both}"
    return {
        "press": f"press {both}", "hold": f"hold {both}", "down": f"hold {both}",
        "up": f"let go of {both}", "wait": f"keep holding, {both} s", "console": f"console: {' '.join(words)}",
    }.get(verb, f"{verb} {both}")


class ScriptTrace:
    """Writes ``script.tsv`` in a frames directory as a script plays (``play_script``'s ``on_step``)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / TRACE_NAME
        self.last = last_frame_number(directory)
        with self.path.open("w", encoding="utf-8", newline="") as file:
            csv.writer(file, dialect="excel-tab").writerow(TRACE_COLUMNS)

    def __call__(self, step: ScriptStep, words: tuple[str, ...], view: str) -> None:
        after = last_frame_number(self.directory)
        row = (self.last, after, step.line, step.section, describe_action(step.verb, words), step.note, view)
        self.last = after
        with self.path.open("a", encoding="utf-8", newline="") as file:
            csv.writer(file, dialect="excel-tab").writerow(row)


@dataclass(frozen=True)
class Action:
    """One row of ``script.tsv``: frames ``before`` (on screen already) and ``before+1..after`` (drawn)."""

    before: int
    after: int
    section: str
    action: str
    note: str
    view: str


def read_trace(frames_dir: Path) -> list[Action]:
    """The actions in ``frames_dir/script.tsv``; a ValueError naming the file and row when it is not one."""
    path = frames_dir / TRACE_NAME
    if not path.is_file():
        raise ValueError(f"no {TRACE_NAME} in {frames_dir}: play a script with --frames-dir and --script")
    actions = []
    with path.open(encoding="utf-8", newline="") as file:
        for number, row in enumerate(csv.DictReader(file, dialect="excel-tab"), start=2):
            try:
                actions.append(Action(int(row["before"]), int(row["after"]), row["section"],
                                      row["action"], row["note"], row["view"]))
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{path}, row {number}: expected the columns {', '.join(TRACE_COLUMNS)}") from None
    return actions


def sections(actions: list[Action]) -> Iterator[tuple[str, list[Action]]]:
    """The actions grouped by section, in order; a section that comes back later is a new group."""
    group: list[Action] = []
    for action in actions:
        if group and action.section != group[0].section:
            yield group[0].section, group
            group = []
        group.append(action)
    if group:
        yield group[0].section, group


def spread(items: list[int], count: int) -> list[int]:
    """At most ``count`` of ``items``, evenly spread, the last always kept.

    >>> spread([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4)
    [2, 5, 8, 10]
    """
    if len(items) <= count:
        return items
    step = len(items) / count
    return [items[round(step * (index + 1)) - 1] for index in range(count)]


def timeline(group: list[Action]) -> list[tuple[int, str, int]]:
    """(frame number, caption, milliseconds) for one section: its opening screen, then each action's."""
    shown: list[tuple[int, str, int]] = []
    if group[0].before >= 1:
        shown.append((group[0].before, "", STEP_MS))
    for action in group:
        drawn = list(range(action.before + 1, action.after + 1))
        if not drawn:
            continue
        caption = f"{action.action} · {action.note}" if action.note else action.action
        shown += [(number, caption, PASSING_MS) for number in spread(drawn[:-1], PASSING_FRAMES)]
        shown.append((drawn[-1], caption, RESULT_MS if action.view in RESULT_VIEWS else STEP_MS))
    return shown


def section_title(section: str) -> str:
    """A section comment as a title: the script's menu positions (``[4]``) dropped."""
    return re.sub(r"\s*\[\d+\]", "", section).strip()


def captioned(panel: Image.Image, title: str, caption: str, scale: int = SCALE) -> Image.Image:
    """The panel's frame enlarged, the section's title above it and the action's caption below."""
    frame = panel.convert("RGB")
    frame = frame.resize((frame.width * scale, frame.height * scale), Image.Resampling.NEAREST)
    title_face, action_face = font(TITLE_SIZE), font(ACTION_SIZE, bold=True)
    line_height = TITLE_SIZE + 3
    title_height, action_height = TITLE_LINES * line_height + 2 * STRIP_PAD, ACTION_SIZE + 2 * STRIP_PAD
    out = Image.new("RGB", (frame.width, title_height + frame.height + action_height), BACKGROUND)
    out.paste(frame, (0, title_height))
    draw = ImageDraw.Draw(out)
    width = frame.width - 2 * STRIP_PAD
    lines = wrap(title, title_face, width) or [title]
    if len(lines) > TITLE_LINES:
        lines = lines[:TITLE_LINES - 1] + [" ".join(lines[TITLE_LINES - 1:])]
    for row, line in enumerate(lines):
        draw.text((STRIP_PAD, STRIP_PAD + row * line_height), _clipped(draw, line, title_face, width),
                  font=title_face, fill=TITLE_INK)
    action, _, note = caption.partition(" · ")
    x, y = STRIP_PAD, title_height + frame.height + STRIP_PAD
    draw.text((x, y), action, font=action_face, fill=ACTION_INK)
    if note:
        x += int(draw.textlength(action + "  ", font=action_face))
        draw.text((x, y), _clipped(draw, note, font(ACTION_SIZE), frame.width - x - STRIP_PAD),
                  font=font(ACTION_SIZE), fill=NOTE_INK)
    return out


def _clipped(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont, width: int) -> str:
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text.rstrip(" ,;") + "…"


def gif_name(index: int, section: str) -> str:
    """``03-debunk.gif``: the section's order and the words before its colon."""
    words = re.findall(r"[a-z0-9]+", section_title(section).partition(":")[0].lower())
    return f"{index:02d}-{'-'.join(words) or 'flow'}.gif"


def make_flow_gifs(frames_dir: Path, out_dir: Path) -> list[tuple[str, Path, int]]:
    """One GIF per section into ``out_dir`` and its ``index.md``; (title, path, frames) of each."""
    actions = read_trace(frames_dir)
    if last_frame_number(frames_dir) == 0:
        raise ValueError(f"no frame-*.png files in {frames_dir}")
    out_dir.mkdir(parents=True, exist_ok=True)
    made = []
    for index, (section, group) in enumerate(sections(actions), start=1):
        shown = timeline(group)
        if not shown:
            continue
        title = section_title(section)
        frames = []
        for number, caption, _ in shown:
            with Image.open(frame_path(frames_dir, number)) as panel:
                frames.append(captioned(panel, title, caption))
        path = out_dir / gif_name(index, section)
        frames[0].save(path, save_all=True, append_images=frames[1:], loop=0, optimize=True,
                       duration=[ms for _, _, ms in shown])
        made.append((title, path, len(frames)))
    _write_index(out_dir, made)
    return made


def _write_index(out_dir: Path, made: list[tuple[str, Path, int]]) -> None:
    lines = ["# Every flow of the kit, one GIF each", "",
             "Played by the simulator from `firmware/scripts/walkthrough.txt`. The strip under each",
             "screen names the button pressed or the cards laid; results stay up 2 s. Made again with:",
             "", "    " + REMAKE[0], "    " + REMAKE[1], ""]
    for title, path, _ in made:
        heading = title[:1].upper() + title[1:]
        lines += [f"## {heading}", "", f"![{title}]({path.name})", ""]
    (out_dir / "index.md").write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m firmware.demo_gif FRAMES_DIR OUT_DIR", file=sys.stderr)
        return 2
    try:
        made = make_flow_gifs(Path(argv[0]), Path(argv[1]))
    except (OSError, ValueError) as error:
        print(f"demo_gif: {error}", file=sys.stderr)
        return 1
    for title, path, count in made:
        print(f"{path}: {count} frames ({title})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
