"""Turn the frames the simulator wrote (``--frames-dir``) into an animated GIF for the README.

    labkit run --simulate --headless --state-dir /tmp/demo --frames-dir /tmp/frames \
        --script firmware/scripts/walkthrough.txt
    python -m firmware.demo_gif /tmp/frames docs/demo.gif
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

SCALE = 3
FRAME_MS = 700


def make_gif(frames_dir: Path, out: Path, scale: int = SCALE, frame_ms: int = FRAME_MS) -> int:
    """Write ``out`` from the numbered PNGs in ``frames_dir``; returns the number of frames."""
    paths = sorted(frames_dir.glob("frame-*.png"))
    if not paths:
        raise ValueError(f"no frame-*.png files in {frames_dir}")
    frames = []
    for path in paths:
        with Image.open(path) as image:
            frame = image.convert("RGB")
        frames.append(frame.resize((frame.width * scale, frame.height * scale), Image.Resampling.NEAREST))
    frames[0].save(out, save_all=True, append_images=frames[1:], duration=frame_ms, loop=0, optimize=True)
    return len(frames)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m firmware.demo_gif FRAMES_DIR OUT.gif", file=sys.stderr)
        return 2
    count = make_gif(Path(argv[0]), Path(argv[1]))
    print(f"{argv[1]}: {count} frames")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
