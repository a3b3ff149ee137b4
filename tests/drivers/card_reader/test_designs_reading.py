"""Issue 15: the card reader never gives a wrong reading, on a fixed handful of scenes of every card
design (the design benchmark's generator; about 10 s of reading). A wrong reading is ``ok`` naming a
card that is not there, or ``ok`` while a card in view (face down, cut by the frame, a third one,
one in shadow) is not named. Each design's back is enrolled with its faces, as the kit's
calibration does. Misses (``unsure`` where a card could be read) do not fail this test;
benchmarks/card_reader_designs.py counts them."""

from __future__ import annotations

from drivers.card_reader import CardReader, enroll
from drivers.card_reader.designs import DESIGN_NAMES, design_scene, judge, make_design

#: scenes per design of each set: 10 + 6 scenes x 5 designs read in about 10 s here
NORMAL_SCENES = 10
HARD_SCENES = 6
#: seeds far from the benchmark's (3000000 on) and from any tuning, fixed so the test is the same each run
FIRST_SEED = 900_000


def test_no_wrong_reading_on_any_design() -> None:
    wrong = []
    for name in DESIGN_NAMES:
        design = make_design(name)
        reader = CardReader(enroll(dict(design.faces), design.back))
        for i in range(NORMAL_SCENES + HARD_SCENES):
            scene = design_scene(design, FIRST_SEED + i, hard=i >= NORMAL_SCENES)
            verdict = judge(scene, reader.identify(scene.image))
            if verdict.outcome == "wrong":
                wrong.append(f"{name} seed {scene.seed} {scene.kind}: {verdict.reason}")
    assert not wrong, "\n".join(wrong)
