"""Save each displayed frame as a numbered PNG: the simulator's ``--frames-dir``."""

from __future__ import annotations

import os
import re
from pathlib import Path

from PIL import Image

FRAME_NAME = re.compile(r"^frame-(\d{5,})\.png$")


def frame_path(directory: Path, number: int) -> Path:
    """The file of frame ``number`` (from 1) in ``directory``."""
    return directory / f"frame-{number:05d}.png"


def last_frame_number(directory: Path) -> int:
    """The highest frame number written in ``directory``; 0 when it holds none."""
    return max((int(m.group(1)) for p in directory.iterdir() if (m := FRAME_NAME.match(p.name))),
               default=0)


class FramesWriter:
    """A frame sink writing ``frame-00001.png``, ``frame-00002.png``... into ``directory``.

    A frame identical to the previous one (same mode, size and pixels) is skipped. Numbering goes
    on after the highest frame already in the directory, so nothing is overwritten. Write errors
    are ``OSError``s naming the file.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.count = last_frame_number(self.directory)
        self._previous: tuple[str, tuple[int, int], bytes] | None = None

    def write(self, image: Image.Image) -> Path | None:
        """Save ``image`` as the next frame; its path, or None when it repeats the last one."""
        key = (image.mode, image.size, image.tobytes())
        if key == self._previous:
            return None
        path = frame_path(self.directory, self.count + 1)
        tmp = path.with_suffix(".png.tmp")
        image.save(tmp, format="PNG")
        os.replace(tmp, path)
        self.count += 1
        self._previous = key
        return path

    def close(self) -> None:
        pass
