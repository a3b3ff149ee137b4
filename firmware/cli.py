"""The ``labkit`` command: the engine's command language, the card reader, and the daemon.

    labkit new [--golem|--no-golem] [--level apprentice|master] [--rules alchemists|alchymisti]
    labkit ask [--level apprentice|master] [--rules alchemists|alchymisti] CODE QUESTION...
                                         (see engine.commands.QUESTION_FORMS)
    labkit vision enroll|identify ...    (see drivers.card_reader.cli)
    labkit config [--config FILE] --dump
    labkit run [--simulate] [...]        (the daemon; see firmware.daemon)

Options not given are the configuration's defaults (``--config FILE``, else /etc/labkit/labkit.toml
if it exists). A question the game's options forbid is refused, naming the option that would allow it.
``labkit ask`` is stateless: the library answers for any ingredient.

Every reply is one JSON object on stdout; an error is ``{"error": {"kind", "message"}}`` with exit
status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import (
    INGREDIENT_IDS,
    CommandError,
    Game,
    LabkitError,
    Level,
    OptionError,
    Rules,
    decode_code,
    error_reply,
    parse_level,
    parse_question,
    parse_rules,
)

if TYPE_CHECKING:
    from firmware.config import GameConfig
from engine.commands import QUESTION_FORMS

USAGE = (
    "usage: labkit new [--golem] [--level L] [--rules R] | labkit ask [--level L] [--rules R] CODE QUESTION... | "
    "labkit vision ... | labkit config [--config FILE] --dump | labkit run [--simulate] ..."
)


@dataclass(frozen=True)
class GameChoice:
    """The options of ``labkit new`` and ``labkit ask``: those given, the rest from the configuration."""

    level: Level
    rules: Rules
    golem: bool
    rules_given: bool


def read_options(command: str, args: Sequence[str], *, golem: bool) -> tuple[GameChoice, list[str]]:
    """The leading ``--option value`` words of ``labkit new`` or ``labkit ask``, and the words after them."""
    given: dict[str, str] = {}
    flags = ("--config", "--level", "--rules")
    rest = list(args)
    while rest and rest[0].startswith("--"):
        option, _, value = rest.pop(0).partition("=")
        if golem and option in ("--golem", "--no-golem") and not value:
            given["golem"] = option
            continue
        if option not in flags:
            expected = ", ".join(("--golem", "--no-golem", *flags) if golem else flags)
            raise CommandError(f"labkit {command}: unknown option {option!r}: expected {expected}")
        if not value:
            if not rest:
                raise CommandError(f"labkit {command}: {option} needs a value")
            value = rest.pop(0)
        given[option[2:]] = value
    config = _configured_game(given.get("config"))
    rules = parse_rules(given["rules"]) if "rules" in given else Rules(config.rules)
    level = parse_level(given["level"]) if "level" in given else Level(config.level)
    # the configured golem is a default: it gives way to rules that have no golem
    chosen_golem = given.get("golem", "") == "--golem" or (
        "golem" not in given and config.golem and rules is Rules.ALCHEMISTS)
    return GameChoice(level, rules, chosen_golem, "rules" in given), rest


def _configured_game(path: str | None) -> GameConfig:
    from firmware.config import DEFAULT_PATH, ConfigError, load_config

    try:
        return load_config(path if path is not None else DEFAULT_PATH if DEFAULT_PATH.exists() else None).game
    except ConfigError as error:
        raise BadConfigError(str(error)) from None


class BadConfigError(LabkitError):
    """The configuration file that gives the defaults cannot be read."""

    kind = "bad_config"


def with_option_hint(error: LabkitError) -> LabkitError:
    """An option's refusal, completed with the command-line option that allows the question."""
    if isinstance(error, OptionError):
        return OptionError(error.kind, f"{error.message}; the option --{error.option} {error.allowing} allows it",
                           error.option, error.allowing)
    return error


HELP_WORDS = ("-h", "--help")  # text, not JSON: an option, so no command word is taken


def help_text() -> str:
    """What ``labkit --help`` prints: every command and every question form."""
    questions = "\n".join(f"    labkit ask CODE {form}" for form in QUESTION_FORMS)
    return f"""usage: labkit COMMAND ...

    labkit new [--golem|--no-golem] [--level LEVEL] [--rules RULES] [--config FILE]
                                         a new game: prints its code
    labkit ask [--level LEVEL] [--rules RULES] [--config FILE] CODE QUESTION
{questions}
    labkit vision enroll FACES_DIR REFS_FILE
    labkit vision identify REFS_FILE IMAGE [IMAGE ...] [--tolerance T] [--empty-shelf IMAGE]
    labkit run [--simulate] [--headless] [--console PORT] [--state-dir DIR] [--frames-dir DIR] [--script FILE] [--log-file FILE|-]
    labkit config [--config FILE] --dump

ING: fern claw mushroom flower root scorpion toad feather; POTION: R+ R- G+ G- B+ B- N;
COLOUR: R G B; LEVEL: apprentice master; RULES: alchemists alchymisti. Options not given are
the configuration's. Each level and rules have one debunk: apprentice 'debunk ING COLOUR', master
'debunk ING ING POTION', alchymisti 'debunk ING ING' (no exhibition, no golem).
Replies are one JSON object on stdout; an error exits with status 2.
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
    """``labkit new [--golem] [--level L] [--rules R]``: draw a new game and print its code."""
    choice, rest = read_options("new", args, golem=True)
    if rest:
        return fail(CommandError(f"labkit new: unexpected {rest[0]!r}: options start with --"))
    print_json({"code": Game.new(golem=choice.golem, level=choice.level, rules=choice.rules).code})
    return 0


def command_ask(args: Sequence[str]) -> int:
    """``labkit ask [--level L] [--rules R] CODE QUESTION...``: answer one question about that game."""
    choice, rest = read_options("ask", args, golem=False)
    if len(rest) < 2:
        return fail(CommandError("labkit ask needs a game code and a question, e.g. 'labkit ask DEMO mix fern toad'"))
    rules = choice.rules
    if not choice.rules_given and decode_code(rest[0]).golem is not None:
        rules = Rules.ALCHEMISTS  # a golem code is a King's Golem game, whatever the configured rules
    game = Game.from_code(rest[0], choice.level, rules)
    print_json(game.answer(parse_question(rest[1:], game)).to_data())  # JSON only here, at the edge
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

            return vision_main(rest, INGREDIENT_IDS)
        if command in ("run", "config"):
            from firmware.daemon_cli import main as daemon_main

            return daemon_main([command, *rest])
        return fail(CommandError(f"unknown command {command!r}; {USAGE}" if command else USAGE))
    except LabkitError as error:
        return fail(with_option_hint(error))


if __name__ == "__main__":
    sys.exit(main())
