"""One error family for the rules engine: every error is a ``ValueError`` with a ``kind``.

The ``kind`` is a stable machine-readable word (it appears in the JSON replies of the command
language); the message is one sentence for people and names the offending input.
"""

from __future__ import annotations


class LabkitError(ValueError):
    """Base of every error the engine raises; ``kind`` says which rule was broken."""

    kind = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownNameError(LabkitError):
    """A word that names no ingredient, potion, colour, alchemical, level or rules variant."""

    def __init__(self, what: str, text: str, valid: list[str] | tuple[str, ...], *,
                 message: str | None = None) -> None:
        super().__init__(message or f"unknown {what} {text!r}: expected one of {', '.join(valid)}")
        self.kind = f"unknown_{what}"
        self.text = text


class InvalidCodeError(LabkitError):
    """A game code that cannot be read: wrong length, not letters, or a letter that encodes nothing."""

    kind = "invalid_code"


class IllegalQuestionError(LabkitError):
    """A well-formed question that the rules do not allow (same ingredient twice, golem in a base game)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class OptionError(IllegalQuestionError):
    """A question (or a game) that one of the game's options forbids: its rules or its level.

    ``option`` names the option (``"rules"`` or ``"level"``) and ``allowing`` the value that
    would allow it, so an edge can say how to ask it (``labkit ask --level apprentice``).
    """

    def __init__(self, kind: str, message: str, option: str, allowing: str) -> None:
        super().__init__(kind, message)
        self.option = option
        self.allowing = allowing


class CommandError(LabkitError):
    """A command line that does not parse: unknown verb or wrong number of words."""

    kind = "bad_command"


class LogFormatError(LabkitError):
    """Saved game data that cannot be read back: wrong schema version or a missing field."""

    kind = "bad_saved_game"
