"""Save each displayed frame as a numbered PNG: the simulator's ``--frames-dir``."""

from __future__ import annotations

import os
import re
from pathlib import Path

from PIL import Image

FRAME_NAME = re.compile(r"^frame-(\d{5,})\.png$")


class FramesWriter:
    """A frame sink writing ``frame-00001.png``, ``frame-00002.png``... into ``directory``.

    A frame identical to the previous one (same mode, size and pixels) is skipped. Numbering goes
    on after the highest frame already in the directory, so nothing is overwritten. Write errors
    are ``OSError``s naming the file.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        numbers = [int(m.group(1)) for p in self.directory.iterdir()
                   if (m := FRAME_NAME.match(p.name))]
        self.count = max(numbers, default=0)
        self._previous: tuple[str, tuple[int, int], bytes] | None = None

    def write(self, image: Image.Image) -> Path | None:
        """Save ``image`` as the next frame; its path, or None when it repeats the last one."""
        key = (image.mode, image.size, image.tobytes())
        if key == self._previous:
            return None
        path = self.directory / f"frame-{self.count + 1:05d}.png"
        tmp = path.with_suffix(".png.tmp")
        image.save(tmp, format="PNG")
        os.replace(tmp, path)
        self.count += 1
        self._previous = key
        return path

    def close(self) -> None:
        pass
