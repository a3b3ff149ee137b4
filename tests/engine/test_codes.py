"""Game codes (RULES.md §7): the published vectors of every algorithm, round trips, refusals."""

from __future__ import annotations

import itertools
import random
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import GOLEMS, Colour, Game, Ingredient, InvalidCodeError, Mix, Potion, Size, decode_code
from engine.codes import codes_to_hand_out, encode_code, read_2014

ALL_PERMUTATIONS = list(itertools.permutations(range(8)))
CODES_2014 = ["".join(letters) + last for letters in itertools.product(string.ascii_uppercase, repeat=3) for last in "ABCDE"]
APP_NAMES = ("R+", "G+", "B+", "R-", "G-", "B-", "++", "--")  # alchemicals in app order, RULES.md §2


def app_names(code: str) -> list[str]:
    """The assignment of a code as the published vectors write it, fern to feather."""
    return [APP_NAMES[alchemical] for alchemical in decode_code(code).permutation]


def golem_letters(code: str) -> str:
    """Ears then chest, uppercase for large, as the published vectors write the golem."""
    golem = decode_code(code).golem
    assert golem is not None
    return "".join(
        part.colour.name if part.size is Size.LARGE else part.colour.name.lower() for part in (golem.ears, golem.chest)
    )


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
def test_2014_vectors(code: str, permutation: tuple[int, ...]) -> None:
    assert decode_code(code).permutation == permutation
    assert decode_code(code).algorithm == "2014"


# liamdawson/abg-code-algorithms (Unlicense), src/reference/v2.rs: one vector per parity case of
# the first three letters (ingredient order fern, claw, mushroom, flower, root, scorpion, toad, feather).
VECTORS_2015 = {
    "QWIN": "R+ G+ B+ B- R- -- G- ++",
    "CEJT": "B+ G+ R- B- ++ -- R+ G-",
    "UHIP": "++ G+ G- R+ R- B- B+ --",
    "SDVZ": "-- G+ B- B+ ++ R+ R- G-",
    "HQMT": "B+ ++ G- R- B- R+ -- G+",
    "NMRX": "++ R+ G+ -- R- G- B+ B-",
    "DTQH": "G+ B+ -- G- R+ ++ B- R-",
    "JFBL": "B+ B- ++ R- R+ G+ -- G-",
}
# src/reference/v3.rs: one vector per parity case, and GOLEM (read as the phone apps read it; the web
# app differs). The golem as there: ears then chest, uppercase large, lowercase small.
VECTORS_GOLEM = {
    "OCEGF": ("G- -- ++ R+ G+ R- B+ B-", "rg"),
    "MUDTC": ("++ -- G+ B+ B- G- R- R+", "Rg"),
    "CLGVD": ("G- ++ R- B- -- B+ R+ G+", "Gb"),
    "IVTII": ("R+ R- -- B- G- G+ B+ ++", "RG"),
    "DAARD": ("G- B- R+ G+ B+ R- -- ++", "gR"),
    "NCHNE": ("B- B+ G+ -- G- ++ R- R+", "BG"),
    "HNKUB": ("G+ B- -- R- ++ R+ B+ G-", "bg"),
    "RXTUE": ("B+ ++ R- B- -- G+ G- R+", "rb"),
    "GOLEM": ("R+ ++ G- B+ G+ R- B- --", "bG"),
}


def parity_case(code: str) -> int:
    return sum((string.ascii_uppercase.index(letter) % 2) << bit for bit, letter in enumerate(code[:3]))


def test_the_published_vectors_cover_every_parity_case() -> None:
    assert {parity_case(code) for code in VECTORS_2015} == set(range(8))
    assert {parity_case(code) for code in VECTORS_GOLEM} == set(range(8))


@pytest.mark.parametrize("code, names", VECTORS_2015.items())
def test_2015_vectors(code: str, names: str) -> None:
    assert app_names(code) == names.split()
    assert app_names(code.lower()) == names.split()
    assert decode_code(code).golem is None and decode_code(code).algorithm == "2015"


@pytest.mark.parametrize("code, expected", VECTORS_GOLEM.items())
def test_golem_vectors(code: str, expected: tuple[str, str]) -> None:
    names, golem = expected
    assert app_names(code) == names.split()
    assert golem_letters(code) == golem
    assert decode_code(code).algorithm == "golem"


def test_golem_vector_in_the_engines_words() -> None:
    golem = decode_code("OCEGF").golem
    assert golem is not None
    assert (golem.ears.colour, golem.ears.size) == (Colour.R, Size.SMALL)
    assert (golem.chest.colour, golem.chest.size) == (Colour.G, Size.SMALL)


def test_tutorial_code_mushroom_and_toad_make_healing() -> None:
    assert Game.from_code("DEMO").ask(Mix(Ingredient.MUSHROOM, Ingredient.TOAD)).to_data() == {"potion": Potion.RED_PLUS.value}


def test_every_assignment_is_reachable_from_2014_codes() -> None:
    assert len({read_2014(code) for code in CODES_2014}) == 40320


def test_every_assignment_has_7_to_16_codes_to_hand_out_that_read_back() -> None:
    # 8 to 16 codes ending F..Z each; DEMO's 2015 reading loses one (DEMO reads as the 2014 tutorial)
    for permutation in ALL_PERMUTATIONS:
        codes = codes_to_hand_out(permutation)
        assert 7 <= len(codes) <= 16, permutation
        assert all(len(code) == 4 and code[3] >= "F" and code != "DEMO" for code in codes)
        assert decode_code(codes[len(codes) // 2]).permutation == permutation


def test_every_assignment_and_every_golem_can_be_written_and_read_back() -> None:
    # each assignment once, with the golems in turn (every golem ~1680 times); the exhaustive
    # 40320 x 24 check is test_every_golem_game_has_codes_to_hand_out (slow)
    for number, permutation in enumerate(ALL_PERMUTATIONS):
        golem = GOLEMS[number % len(GOLEMS)]
        codes = codes_to_hand_out(permutation, golem)
        assert all(len(code) == 5 and code[3] >= "F" for code in codes)
        decoded = decode_code(codes[len(codes) // 2])
        assert (decoded.permutation, decoded.golem) == (permutation, golem)


@pytest.mark.slow
def test_every_golem_game_has_codes_to_hand_out() -> None:
    for permutation in ALL_PERMUTATIONS:
        for golem in GOLEMS:
            code = codes_to_hand_out(permutation, golem)[0]
            assert decode_code(code).permutation == permutation and decode_code(code).golem == golem


def test_the_codes_to_hand_out_are_exactly_the_codes_that_read_as_the_game() -> None:
    # every 4-letter code ending F..Z (a slice of first letters, all the rest) read, then grouped
    seen: dict[tuple[int, ...], list[str]] = {}
    for first, second, third in itertools.product("QRST", string.ascii_uppercase, string.ascii_uppercase):
        for last in string.ascii_uppercase[5:]:
            code = first + second + third + last
            if code != "DEMO":
                seen.setdefault(decode_code(code).permutation, []).append(code)
    for permutation, codes in random.Random(11).sample(sorted(seen.items()), 300):
        handed = [code for code in codes_to_hand_out(permutation) if code[0] in "QRST"]
        assert sorted(codes) == handed


@given(st.permutations(range(8)), st.randoms(use_true_random=False))
def test_base_codes_round_trip(permutation: list[int], rng: random.Random) -> None:
    code = encode_code(tuple(permutation), None, rng)
    decoded = decode_code(code)
    assert len(code) == 4 and code[3] >= "F"
    assert decoded.permutation == tuple(permutation) and decoded.golem is None


@given(st.permutations(range(8)), st.sampled_from(GOLEMS), st.randoms(use_true_random=False))
def test_golem_codes_round_trip(permutation: list[int], golem, rng: random.Random) -> None:
    code = encode_code(tuple(permutation), golem, rng)
    decoded = decode_code(code)
    assert len(code) == 5 and code[3] >= "F"
    assert decoded.permutation == tuple(permutation) and decoded.golem == golem


@given(st.text(alphabet=string.ascii_letters, min_size=5, max_size=5))
def test_every_five_letter_code_reads_as_a_golem_game_whatever_its_case(code: str) -> None:
    decoded = decode_code(code)
    assert decoded.golem is not None and decoded == decode_code(code.upper())
    assert decoded.code == code.upper()


@pytest.mark.parametrize(
    "code, fragment",
    [
        ("ABC", "has 3 characters"),
        ("ABCDEF", "has 6 characters"),
        ("", "has 0 characters"),
        ("AB1A", "letters A to Z only, not '1'"),
        ("ÄBCA", "letters A to Z only, not 'Ä'"),
        # uppercasing first would play IAAA, FFAA and the 5-letter SSAAA
        ("ıAAA", "letters A to Z only, not 'ı'"),
        ("ﬀAA", "letters A to Z only, not 'ﬀ'"),
        ("ßAAA", "letters A to Z only, not 'ß'"),
        ("ＡＢＣＤ", "letters A to Z only"),
        ("AB CD", "letters A to Z only, not ' '"),
    ],
)
def test_unreadable_codes_are_refused_with_the_reason(code: str, fragment: str) -> None:
    with pytest.raises(InvalidCodeError) as caught:
        decode_code(code)
    assert fragment in str(caught.value)
    assert repr(code) in str(caught.value)
    assert caught.value.kind == "invalid_code" and isinstance(caught.value, ValueError)


def test_permutations_that_are_not_assignments_are_refused() -> None:
    with pytest.raises(InvalidCodeError, match="not an assignment"):
        codes_to_hand_out((0, 1, 2, 3, 4, 5, 6, 6))
