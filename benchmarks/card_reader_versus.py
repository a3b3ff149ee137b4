"""Time this checkout's card reader against another commit's, frame by frame, alternating.

    .venv/bin/python benchmarks/card_reader_versus.py REV [--scenes N] [--seed S] [--repeats R]
    ./dev bench card_reader_versus REV

The machine we share runs up to a third slower from one minute to the next, so two runs of
``card_reader.py`` a few minutes apart cannot tell a change of a few percent in the code. Here both
readers live in one process: ``drivers/card_reader`` of commit REV (taken with ``git archive``) is
loaded as a package of its own, and each frame is read by one reader, then the other, ``--repeats``
times; each reader's fastest time on the frame counts. Both see the same machine at the same moment.

The scenes are this checkout's, with the same seeds and mix of kinds as ``card_reader.py``; the
default seeds are tuning seeds (60000), as this is a tool for the work on the reader. With
``--design NAME`` they are scenes of that card design instead (``designs.py``, the normal mix, or
the hard one with ``--hard``), each read with its table captured empty before it, as the kit and
``card_reader_designs.py --shelf`` read them. It also counts the frames both readers read the same
(status, ingredients, corners to 0.1 px, confidences to 0.001), and those with the same status and
ingredients, listing the others.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from card_reader import kind_for  # noqa: E402
from drivers import card_reader as this_reader  # noqa: E402
from drivers.card_reader import designs  # noqa: E402
from drivers.card_reader.shelf import EmptyShelf  # noqa: E402
from drivers.card_reader.scenes import random_scene  # noqa: E402


def reader_at(rev: str, into: Path) -> ModuleType:
    """The card reader package of commit ``rev``, imported under a name of its own."""
    name = "card_reader_at_" + "".join(ch if ch.isalnum() else "_" for ch in rev)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "drivers/card_reader"],
                             capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"card_reader_versus: cannot take drivers/card_reader from {rev!r}: "
                         f"{archive.stderr.decode(errors='replace').strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    (into / "drivers" / "card_reader").rename(into / name)
    sys.path.insert(0, str(into))
    return importlib.import_module(name)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rev", help="the commit to compare with (anything git understands: HEAD~3, a hash, a tag)")
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("--seed", type=int, default=60000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--design", choices=designs.DESIGN_NAMES,
                    help="scenes of this card design, each with its empty table captured")
    ap.add_argument("--hard", action="store_true", help="with --design: the hard set's mix of kinds")
    args = ap.parse_args(argv)
    if args.scenes < 1 or args.repeats < 1:
        ap.error("--scenes and --repeats must be at least 1")
    if args.hard and args.design is None:
        ap.error("--hard needs --design")
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        other = reader_at(args.rev, Path(tmp))
        design = designs.make_design(args.design) if args.design else None
        faces = dict(design.faces) if design else this_reader.load_placeholder_faces()
        backs = (design.back,) if design else ()         # a commit from before the enrolled back takes faces only
        readers = {"this checkout": this_reader.CardReader(this_reader.enroll(faces, *backs)),
                   args.rev: other.CardReader(other.enroll(faces, *backs))}
        # a commit from before the empty shelf has no shelf module: it is needed for designs only
        shelves = ({"this checkout": EmptyShelf,
                    args.rev: importlib.import_module(other.__name__ + ".shelf").EmptyShelf} if design else {})
        total = dict.fromkeys(readers, 0.0)
        same, same_answer, differing = 0, 0, []
        for seed in range(args.seed, args.seed + args.scenes):
            if design is None:
                image, empty = random_scene(faces, seed, kind=kind_for(seed)).image, None
            else:
                scene = designs.design_scene(design, seed, hard=args.hard)
                image, empty = scene.image, scene.empty_shelf()
            fastest = dict.fromkeys(readers, float("inf"))
            readings = {}
            for _ in range(args.repeats):
                for name, reader in readers.items():
                    if empty is not None:            # a shelf of its own each time: nothing carried over
                        reader.empty_shelf = shelves[name](empty)
                    t = time.perf_counter()
                    readings[name] = reader.identify(image)
                    fastest[name] = min(fastest[name], time.perf_counter() - t)
            for name in readers:
                total[name] += fastest[name]
            ours, theirs = readings["this checkout"], readings[args.rev]
            same += ours.to_json() == theirs.to_json()
            if (ours.status, ours.ingredients) == (theirs.status, theirs.ingredients):
                same_answer += 1
            else:
                differing.append(f"{seed}: {ours.status} {list(ours.ingredients)} against "
                                 f"{theirs.status} {list(theirs.ingredients)}")
    n = args.scenes
    what = (f"{'hard' if args.hard else 'normal'} scenes of the {args.design} design with their empty tables"
            if args.design else "scenes")
    print(f"card reader versus {args.rev}: {n} {what} from seed {args.seed}, each frame's fastest of "
          f"{args.repeats}, alternating, OpenCV {cv2.__version__}, 1 thread")
    for name, seconds in total.items():
        print(f"  {name:>14}: mean {seconds / n * 1000:.2f} ms per 640x480 frame")
    print(f"  this checkout takes {total['this checkout'] / total[args.rev]:.3f} of {args.rev}'s time; "
          f"same readings on {same} of {n} frames, the same status and ingredients on {same_answer}")
    for line in differing:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
