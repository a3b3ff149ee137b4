"""Game codes (RULES.md §7): official-app vectors, round trips over every game, golem letters."""

from __future__ import annotations

import itertools
import random
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import GOLEMS, Game, Ingredient, InvalidCodeError, Mix, Potion, UnsupportedCodeError, decode_code
from engine.codes import base_codes, encode_code, golem_letter

ALL_PERMUTATIONS = list(itertools.permutations(range(8)))
OLD_CODES = ["".join(letters) + last for letters in itertools.product(string.ascii_uppercase, repeat=3) for last in "ABCDE"]


@pytest.mark.parametrize(
    "code, permutation",
    [
        # Worked by hand from the Lehmer formula of RULES.md §7.
        ("AAAA", (0, 1, 2, 3, 4, 5, 6, 7)),
        ("AAAE", (0, 1, 2, 7, 3, 4, 5, 6)),
        ("IAAA", (0, 1, 2, 3, 4, 5, 7, 6)),
        ("BAAA", (1, 0, 2, 3, 4, 5, 6, 7)),
        ("DEMO", (3, 5, 0, 7, 4, 1, 2, 6)),
        ("demo", (3, 5, 0, 7, 4, 1, 2, 6)),
    ],
)
def test_official_code_vectors(code: str, permutation: tuple[int, ...]) -> None:
    assert decode_code(code).permutation == permutation


def test_tutorial_code_mushroom_and_toad_make_healing() -> None:
    assert Game.from_code("DEMO").ask(Mix(Ingredient.MUSHROOM, Ingredient.TOAD)).to_data() == {"potion": Potion.RED_PLUS.value}


def test_every_old_code_decodes_and_is_listed_among_its_permutations_codes() -> None:
    seen: dict[tuple[int, ...], list[str]] = {}
    for code in OLD_CODES:
        seen.setdefault(decode_code(code).permutation, []).append(code)
    assert len(seen) == 40320  # every permutation is reachable
    sample = random.Random(7).sample(sorted(seen), 2000)
    for permutation in sample:
        assert sorted(base_codes(permutation)) == sorted(seen[permutation])


def test_every_permutation_round_trips_with_one_last_letter_and_one_or_two_first_letters() -> None:
    for permutation in ALL_PERMUTATIONS:
        codes = base_codes(permutation)
        assert codes, permutation
        assert len({code[3] for code in codes}) == 1 and codes[0][3] in "ABCDE"
        assert 1 <= len({code[0] for code in codes}) <= 2
        assert decode_code(codes[-1]).permutation == permutation


@given(st.permutations(range(8)), st.sampled_from(GOLEMS), st.randoms(use_true_random=False))
def test_golem_codes_round_trip(permutation: list[int], golem, rng: random.Random) -> None:
    code = encode_code(tuple(permutation), golem, rng)
    decoded = decode_code(code)
    assert len(code) == 5
    assert decoded.permutation == tuple(permutation) and decoded.golem == golem


def test_each_base_code_has_exactly_two_fifth_letters_that_encode_nothing() -> None:
    for base in random.Random(3).sample(OLD_CODES, 300) + ["DEMO"]:
        refused = []
        for letter in string.ascii_uppercase:
            try:
                decode_code(base + letter)
            except InvalidCodeError as error:
                assert "encodes no golem" in str(error) and letter in str(error)
                refused.append(letter)
        assert len(refused) == 2


def test_the_fifth_letter_depends_on_the_first_four() -> None:
    bases = random.Random(5).sample(OLD_CODES, 200)
    for golem in GOLEMS:
        letters = {golem_letter(base, golem) for base in bases}
        assert len(letters) >= 20, "a small table of fifth letters would give the golem away"


@pytest.mark.parametrize(
    "code, error, fragment",
    [
        ("ABC", InvalidCodeError, "has 3 characters"),
        ("ABCDEF", InvalidCodeError, "has 6 characters"),
        ("", InvalidCodeError, "has 0 characters"),
        ("AB1A", InvalidCodeError, "letters A to Z only, not '1'"),
        ("ÄBCA", InvalidCodeError, "letters A to Z only"),
        ("QBXF", UnsupportedCodeError, "newer official-app code"),
        ("ABCZ", UnsupportedCodeError, "ends its first four letters in Z"),
        ("ABCZA", UnsupportedCodeError, "newer official-app code"),
    ],
)
def test_unreadable_codes_are_refused_with_the_reason(code: str, error: type, fragment: str) -> None:
    with pytest.raises(error) as caught:
        decode_code(code)
    assert fragment in str(caught.value)
    assert repr(code) in str(caught.value)


def test_error_kinds() -> None:
    with pytest.raises(InvalidCodeError) as invalid:
        decode_code("AB")
    with pytest.raises(UnsupportedCodeError) as unsupported:
        decode_code("AAAZ")
    assert invalid.value.kind == "invalid_code"
    assert unsupported.value.kind == "unsupported_code"
    assert isinstance(invalid.value, ValueError) and isinstance(unsupported.value, ValueError)


def test_permutations_that_are_not_assignments_are_refused() -> None:
    with pytest.raises(InvalidCodeError, match="not an assignment"):
        base_codes((0, 1, 2, 3, 4, 5, 6, 6))
