"""New games are uniform: each ingredient holds each alchemical 1/8 of the time (chi-square)."""

from __future__ import annotations

import math
import random
import secrets
import string

import pytest

from engine import GOLEMS, Game, codes_to_hand_out, decode_code

DRAWS = 16000
Z_ONE_IN_A_MILLION = 4.753


def chi_square_bound(degrees: int) -> float:
    """Wilson-Hilferty upper quantile of chi-square at p = 1e-6."""
    h = 2 / (9 * degrees)
    return degrees * (1 - h + Z_ONE_IN_A_MILLION * math.sqrt(h)) ** 3


def chi_square(permutations: list[tuple[int, ...]]) -> float:
    expected = len(permutations) / 8
    counts = [[0] * 8 for _ in range(8)]
    for permutation in permutations:
        for ingredient, alchemical in enumerate(permutation):
            counts[ingredient][alchemical] += 1
    return sum((count - expected) ** 2 / expected for row in counts for count in row)


def test_new_games_are_uniform_with_the_system_random_source() -> None:
    games = [Game.new().permutation for _ in range(DRAWS)]
    assert chi_square(games) < chi_square_bound(56)


def test_new_games_are_uniform_with_a_seeded_source() -> None:
    games = [Game.new(rng=random.Random(seed)).permutation for seed in range(DRAWS)]
    assert chi_square(games) < chi_square_bound(56)


def test_new_golem_games_are_uniform_in_assignment_and_golem() -> None:
    games = [Game.new(golem=True, rng=random.Random(seed)) for seed in range(DRAWS)]
    assert chi_square([game.permutation for game in games]) < chi_square_bound(56)
    counts = [0] * len(GOLEMS)
    for game in games:
        assert game.golem is not None
        counts[game.golem.index] += 1
    expected = DRAWS / len(GOLEMS)
    assert sum((count - expected) ** 2 / expected for count in counts) < chi_square_bound(len(GOLEMS) - 1)


@pytest.mark.parametrize("last_letters", ["ABCDE", string.ascii_uppercase[5:]], ids=["2014", "2015"])
def test_drawing_codes_at_random_like_the_official_app_fails_the_same_bound(last_letters: str) -> None:
    rng = secrets.SystemRandom()
    codes = ["".join(rng.choice(string.ascii_uppercase) for _ in range(3)) + rng.choice(last_letters) for _ in range(DRAWS)]
    assert chi_square([decode_code(code).permutation for code in codes]) > chi_square_bound(56)


def test_the_codes_of_a_permutation_are_drawn_evenly() -> None:
    permutation = (0, 1, 2, 3, 4, 5, 6, 7)
    codes = codes_to_hand_out(permutation)
    counts: dict[str, int] = {}
    for seed in range(4000):
        game = Game.new(rng=_FixedShuffle(permutation, seed))
        counts[game.code] = counts.get(game.code, 0) + 1
    assert sorted(counts) == codes
    assert min(counts.values()) > 4000 / len(codes) * 0.75


class _FixedShuffle(random.Random):
    """A random source whose shuffle always gives one permutation (to test the code choice alone)."""

    def __init__(self, permutation: tuple[int, ...], seed: int) -> None:
        super().__init__(seed)
        self._permutation = permutation

    def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
        x[:] = self._permutation
