"""What one letter of a game code tells about the game: the largest share of one alchemical for one
ingredient among codes with a given letter at a given place (12.5 % would tell nothing).

    .venv/bin/python benchmarks/code_letters.py [--codes N] [--seed S]
    ./dev bench code_letters

Codes drawn uniformly among all 4-letter strings of each kind (as a player might see any of them),
and among the codes the kit hands out (one per uniformly drawn game).
"""

from __future__ import annotations

import argparse
import collections
import random
import string

from engine import Game, decode_code

LETTERS = string.ascii_uppercase


def largest_share(codes: list[str]) -> tuple[float, str]:
    """The largest P(ingredient holds alchemical | letter at place), and where it is."""
    best, where = 0.0, ""
    games = [decode_code(code).permutation for code in codes]
    for place in range(4):
        for ingredient in range(8):
            counts: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
            for code, game in zip(codes, games):
                counts[code[place]][game[ingredient]] += 1
            for letter, counter in counts.items():
                share = max(counter.values()) / sum(counter.values())
                if share > best:
                    best, where = share, f"letter {place + 1} = {letter}, ingredient {ingredient}"
    return best, where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--codes", type=int, default=60000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    kinds = {
        "2014 codes (ending A..E)": [
            "".join(rng.choice(LETTERS) for _ in range(3)) + rng.choice("ABCDE") for _ in range(args.codes)],
        "2015 codes (ending F..Z)": [
            "".join(rng.choice(LETTERS) for _ in range(3)) + rng.choice(LETTERS[5:]) for _ in range(args.codes)],
        "codes the kit hands out": [Game.new(rng=rng).code for _ in range(args.codes)],
    }
    for name, codes in kinds.items():
        share, where = largest_share(codes)
        print(f"{name}: {share:.1%} at most ({where}), {len(codes)} codes")


if __name__ == "__main__":
    main()
