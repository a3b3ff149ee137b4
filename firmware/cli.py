"""The ``labkit`` command: the engine's command language, the card reader, and the daemon.

    labkit new [--golem] [--level apprentice|master]
    labkit ask CODE QUESTION...          (see engine.commands.QUESTION_FORMS)
    labkit vision enroll|identify ...    (see drivers.card_reader.cli)
    labkit config [--config FILE] --dump
    labkit run [--simulate] [...]        (the daemon; see firmware.daemon)

Every reply is one JSON object on stdout; an error is ``{"error": {"kind", "message"}}`` with exit
status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from engine import CommandError, Game, LabkitError, error_reply, parse_question
from engine.commands import QUESTION_FORMS

USAGE = (
    "usage: labkit new [--golem] | labkit ask CODE QUESTION... | labkit vision ... | "
    "labkit config [--config FILE] --dump | labkit run [--simulate] ..."
)


HELP_WORDS = ("-h", "--help")  # text, not JSON: an option, so no command word is taken


def help_text() -> str:
    """What ``labkit --help`` prints: every command and every question form."""
    questions = "\n".join(f"    labkit ask CODE {form}" for form in QUESTION_FORMS)
    return f"""usage: labkit COMMAND ...

    labkit new [--golem]                 a new game: prints its code
{questions}
    labkit vision enroll FACES_DIR REFS_FILE
    labkit vision identify REFS_FILE IMAGE [IMAGE ...]
    labkit run [--simulate] [--headless] [--console PORT] [--state-dir DIR] [--frames-dir DIR] [--script FILE] [--log-file FILE|-]
    labkit config [--config FILE] --dump

ING: fern claw mushroom flower root scorpion toad feather; POTION: R+ R- G+ G- B+ B- N;
COLOUR: R G B. Replies are one JSON object on stdout; an error exits with status 2.
'labkit run --help' lists the daemon's options.
"""


def print_json(data: object) -> None:
    """One JSON object, one line, on stdout."""
    print(json.dumps(data, ensure_ascii=False), flush=True)


def fail(error: LabkitError) -> int:
    """Print an error reply and give the exit status for errors."""
    print_json(error_reply(error))
    return 2


def command_new(args: Sequence[str]) -> int:
    """``labkit new [--golem]``: draw a new game and print its code."""
    unknown = [arg for arg in args if arg != "--golem"]
    if unknown:
        return fail(CommandError(f"labkit new: unknown option {unknown[0]!r}: expected only --golem"))
    print_json({"code": Game.new(golem="--golem" in args).code})
    return 0


def command_ask(args: Sequence[str]) -> int:
    """``labkit ask CODE QUESTION...``: answer one question about the game of that code."""
    if len(args) < 2:
        return fail(CommandError("labkit ask needs a game code and a question, e.g. 'labkit ask DEMO mix fern toad'"))
    game = Game.from_code(args[0])
    print_json(game.answer(parse_question(args[1:])))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``labkit`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    command, rest = (args[0].lower(), args[1:]) if args else ("", [])
    if command in HELP_WORDS:
        sys.stdout.write(help_text())
        return 0
    try:
        if command == "new":
            return command_new(rest)
        if command == "ask":
            return command_ask(rest)
        if command == "vision":
            from drivers.card_reader.cli import main as vision_main

            return vision_main(rest)
        if command in ("run", "config"):
            from firmware.daemon_cli import main as daemon_main

            return daemon_main([command, *rest])
        return fail(CommandError(f"unknown command {command!r}; {USAGE}" if command else USAGE))
    except LabkitError as error:
        return fail(error)


if __name__ == "__main__":
    sys.exit(main())
