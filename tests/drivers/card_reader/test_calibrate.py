"""The verification's probability of being right, counted on readings of scenes whose truth is known."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from drivers.card_reader import CardReader, enroll
from drivers.card_reader.calibrate import fitted, lead_examples
from drivers.card_reader.designs import CardDesign, DesignScene, design_scene, make_design
from drivers.card_reader.verify import SETTINGS, VerifySettings, fit_lead_probability, lead_probability


@pytest.fixture(scope="module")
def woodcut() -> CardDesign:
    return make_design("woodcut")


@pytest.fixture(scope="module")
def two_card_scenes(woodcut: CardDesign) -> list[DesignScene]:
    return [design_scene(woodcut, seed, kind=kind, hard=False) for seed in (1, 2) for kind in ("apart", "overlap")]


def test_every_card_verified_is_an_example_labelled_by_where_it_lies(woodcut, two_card_scenes, monkeypatch) -> None:
    references = enroll(dict(woodcut.faces), woodcut.back)
    examples = lead_examples(references, two_card_scenes)
    # a card whose outline fails is verified again at the card its keypoints place (the refit):
    # both verdicts are examples, and both lie where the card lies
    assert len(examples) >= 2 * len(two_card_scenes)
    assert all(right for _, right in examples)
    assert all(-1.0 <= lead <= 1.0 for lead, _ in examples)
    monkeypatch.setattr(CardReader, "_refitted", lambda *args: None)
    assert len(lead_examples(references, two_card_scenes)) == 2 * len(two_card_scenes)


def test_a_card_named_where_no_such_card_lies_is_a_wrong_example(woodcut, two_card_scenes) -> None:
    # the same faces enrolled under each other's names: every card is named as another ingredient
    names = list(woodcut.faces)
    shifted = enroll({names[(i + 1) % len(names)]: woodcut.faces[name] for i, name in enumerate(names)})
    examples = lead_examples(shifted, two_card_scenes)
    assert examples and not any(right for _, right in examples)


def test_a_card_read_in_a_cut_out_is_counted_at_its_place_in_the_frame(woodcut) -> None:
    # small cards are verified in a cut-out of the frame, in the cut-out's pixels: counted there, a
    # card read right would be taken for one named where no such card lies
    references = enroll(dict(woodcut.faces), woodcut.back)
    scenes = [design_scene(woodcut, seed, kind="small", hard=True) for seed in (1, 3, 6)]
    assert all(CardReader(references).identify(s.image).status == "ok" for s in scenes)
    examples = lead_examples(references, scenes)
    assert len(examples) >= 2 * len(scenes) and all(right for _, right in examples)


def test_each_band_counts_one_right_and_one_wrong_more() -> None:
    bands = SETTINGS.lead_bands
    leads = [bands[-1] + 0.1] * 8 + [bands[0] - 0.1] * 3
    right = [True] * 8 + [True, True, False]
    counted = fitted(list(zip(leads, right))).band_right
    assert counted[-1] == pytest.approx(9 / 10)
    assert counted[0] == pytest.approx(3 / 5)
    assert counted[1:-1] == pytest.approx([3 / 5] * (len(bands) - 1))   # no verdict: the band's below
    assert lead_probability(bands[-1], dataclasses.replace(SETTINGS, band_right=counted)) == counted[-1]


def test_a_band_without_verdicts_below_every_other_is_a_coin_toss_at_most() -> None:
    bands = SETTINGS.lead_bands
    counted = fitted([(bands[-1] + 0.1, True)] * 8).band_right
    assert counted[-1] == pytest.approx(9 / 10)
    assert counted[:-1] == pytest.approx([0.5] * len(bands))


def test_a_band_less_likely_right_than_a_lower_one_is_pooled_with_it() -> None:
    bands = SETTINGS.lead_bands
    leads = [bands[0] - 0.1] * 4 + [bands[0] + 0.01] * 4
    right = [True] * 4 + [True, False, False, False]
    counted = fitted(list(zip(leads, right))).band_right
    assert counted[0] == counted[1] == pytest.approx((4 + 1 + 1 + 1) / (8 + 2 + 2))
    assert list(counted) == sorted(counted)


def test_nothing_verified_or_a_bad_band_is_refused() -> None:
    with pytest.raises(ValueError, match="no card was verified"):
        fitted([])
    with pytest.raises(ValueError, match="must rise"):
        fit_lead_probability([0.1], [True], (0.2, 0.1))


def test_the_shipped_probability_rises_with_the_lead() -> None:
    probabilities = [lead_probability(lead) for lead in np.linspace(-0.3, 1.0, 27)]
    assert probabilities == sorted(probabilities)
    assert len(SETTINGS.band_right) == len(SETTINGS.lead_bands) + 1
    assert isinstance(SETTINGS, VerifySettings) and isinstance(SETTINGS.band_right, tuple)
