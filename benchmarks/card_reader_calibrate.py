"""The verification's probability of being right, counted on scenes of every card design (issue 15 point 1).

    .venv/bin/python benchmarks/card_reader_calibrate.py [--scenes N] [--seed S] [--shelf]
    ./dev bench card_reader_calibrate --scenes 150 --seed 7400000 --shelf     # the shipped band_right

Every card a reader names is verified (``verify.verify_card``), and a card that passes carries the
probability of being right of its lead's band (``VerifySettings.lead_bands``). Here each design of
``drivers.card_reader.designs.DESIGN_NAMES`` reads ``--scenes`` scenes (every fourth a hard one,
seeds S, S+1, ...) against its own enrolled faces and back, and every verdict whose lead was
measured is counted: its band, and whether a face-up card of that ingredient lies there
(``calibrate.lead_examples``). Printed: the counts per design and band; then, for each design left
out, the probabilities counted on the others beside the share right in its own scenes (what the
benchmark card_reader_designs.py reports as "fitted on the others"); last, the probabilities counted
on every design, which are ``VerifySettings.band_right``.

The default seeds are development seeds (7400000), never those of a benchmark run.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

# one core, as the reader is timed elsewhere; numpy's BLAS threads would only share the same cores
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from drivers.card_reader import enroll  # noqa: E402
from drivers.card_reader.calibrate import LeadExample, fitted, lead_examples  # noqa: E402
from drivers.card_reader.designs import DESIGN_NAMES, design_scene, make_design  # noqa: E402
from drivers.card_reader.verify import SETTINGS  # noqa: E402


def band_names() -> list[str]:
    edges = SETTINGS.lead_bands
    return ([f"< {edges[0]:g}"] + [f"{a:g}-{b:g}" for a, b in zip(edges, edges[1:])] + [f">= {edges[-1]:g}"])


def band_counts(examples: list[LeadExample]) -> list[tuple[int, int]]:
    """(verdicts, wrong) in each band of the lead."""
    counts = [[0, 0] for _ in range(len(SETTINGS.lead_bands) + 1)]
    for lead, right in examples:
        band = sum(lead >= edge for edge in SETTINGS.lead_bands)
        counts[band][0] += 1
        counts[band][1] += not right
    return [(n, w) for n, w in counts]


def design_examples(name: str, args: argparse.Namespace) -> list[LeadExample]:
    design = make_design(name, args.design_seed)
    references = enroll(dict(design.faces), design.back)
    scenes = [design_scene(design, args.seed + i, hard=i % 4 == 3) for i in range(args.scenes)]
    return lead_examples(references, scenes, args.shelf)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scenes", type=int, default=150, help="scenes per design (default 150)")
    p.add_argument("--seed", type=int, default=7_400_000, help="first scene seed (default 7400000)")
    p.add_argument("--design-seed", type=int, default=0, help="seed of the designs themselves (default 0)")
    p.add_argument("--shelf", action="store_true",
                   help="give the reader each scene's table without cards, as the kit captures it before a game")
    args = p.parse_args(argv)
    if args.scenes < 1:
        p.error("--scenes must be at least 1")
    cv2.setNumThreads(1)
    names = band_names()
    print(f"verdicts of {args.scenes} scenes a design, seeds from {args.seed}, "
          + ("the empty shelf captured" if args.shelf else "no empty shelf") + "; lead bands: " + ", ".join(names))
    by_design = {name: design_examples(name, args) for name in DESIGN_NAMES}
    print("\n| design | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for name, examples in by_design.items():
        print(f"| {name} | " + " | ".join(f"{n} ({w} wrong)" for n, w in band_counts(examples)) + " |")
    print("\nleft out: the probability counted on the other designs, and the share right in its own scenes")
    print("\n| left out | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for name, examples in by_design.items():
        others = [e for other, found in by_design.items() if other != name for e in found]
        fit = fitted(others).band_right
        own = band_counts(examples)
        print(f"| {name} | " + " | ".join(
            f"{p:.3f} / " + (f"{(n - w) / n:.3f} of {n}" if n else "none") for p, (n, w) in zip(fit, own)) + " |")
    every = [e for found in by_design.values() for e in found]
    shipped = ", ".join(f"{p:.4f}" for p in fitted(every).band_right)
    print(f"\ncounted on every design ({len(every)} verdicts, {sum(not r for _, r in every)} wrong): "
          f"band_right = ({shipped})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
