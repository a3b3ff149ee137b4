"""The kit's configuration: a TOML file validated into frozen dataclasses.

The file is read with :mod:`tomllib`; every key is checked against the dataclasses below, so a typo is
refused with the key named instead of being silently ignored::

    config /etc/labkit/labkit.toml: unknown key [camera] fps

A missing key takes its default, so an empty file (or no file at all) is a valid configuration.
:func:`dump_config` writes the effective configuration back as TOML (``labkit config --dump``);
loading that dump gives the same :class:`Config` again.

>>> config = load_config(None, {"storage.state_dir": "/tmp/labkit-state"})
>>> config.storage.state_dir
PosixPath('/tmp/labkit-state')
>>> config.camera.width, config.buttons.ok
(640, 13)
>>> load_config(None, {"camera.fps": 30})
Traceback (most recent call last):
...
firmware.config.ConfigError: config overrides: unknown key [camera] fps
"""

from __future__ import annotations

import dataclasses
import errno
import math
import os
import re
import stat
import tomllib
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.platform import FAMILIES

__all__ = [
    "DEFAULT_PATH",
    "ButtonsConfig",
    "CameraConfig",
    "Config",
    "ConfigError",
    "ConsoleConfig",
    "DisplayConfig",
    "GameConfig",
    "LedConfig",
    "LogConfig",
    "ReaderConfig",
    "StorageConfig",
    "config_from_dict",
    "dump_config",
    "load_config",
]

#: Where the installed kit reads its configuration (``systemd/install.sh`` puts it there).
DEFAULT_PATH = Path("/etc/labkit/labkit.toml")

#: The luma.core command-line options of the default display: an SSD1306 128x64 OLED on I2C.
DEFAULT_LUMA = ("--display", "ssd1306", "--interface", "i2c", "--width", "128", "--height", "64")


#: ``[camera] controls``: libcamera control names -> values as written (``drivers.camera.controls``).
CameraControls = dict[str, str | int | float | bool]


class ConfigError(ValueError):
    """A configuration file or override that cannot be used; the message names file, key and value."""


def _setting(default: Any, doc: str, **rules: Any) -> Any:
    """A dataclass field with its documentation and validation rules in the metadata."""
    metadata = {"doc": doc, **rules}
    if isinstance(default, dict):
        return field(default_factory=lambda: dict(default), metadata=metadata)
    if isinstance(default, (list, tuple)):
        return field(default=tuple(default), metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class GameConfig:
    """``[game]``: the defaults for a new game (the player can change them from the menu)."""

    rules: str = _setting("alchemists", "rule set of the box", choices=("alchemists", "alchymisti"))
    level: str = _setting("apprentice", "difficulty of a new game", choices=("apprentice", "master"))
    golem: bool = _setting(False, "play with The King's Golem expansion")
    language: str = _setting("en", "language of the screens", choices=("en", "ru", "pl", "sk"))


@dataclass(frozen=True)
class CameraConfig:
    """``[camera]``: the camera in the cauldron; "auto" picks picamera2 on a Pi, else a webcam."""

    backend: str = _setting(
        "auto",
        "auto, picamera2, webcam, replay (image files), fake or disabled",
        choices=FAMILIES["camera"].choices,
    )
    device: int | str = _setting(0, "webcam index (0, 1, ...) or device path (/dev/video0)", minimum=0)
    width: int = _setting(640, "frame width in pixels", minimum=16, maximum=4096)
    height: int = _setting(480, "frame height in pixels", minimum=16, maximum=4096)
    replay_dir: Path | None = _setting(None, 'image files served by the replay backend ("" = samples)')
    controls: CameraControls = _setting(
        {"AfMode": "Continuous", "AfRange": "Macro"},
        "libcamera controls by name (Camera Module 3: focus near; a module without autofocus skips them)",
    )


@dataclass(frozen=True)
class ReaderConfig:
    """``[reader]``: recognising the ingredient cards on the shelf."""

    references: Path | None = _setting(None, 'reference card faces ("" = the shipped placeholder faces)')
    tolerance: float = _setting(0.5, "match tolerance, 0 (strict) to 1 (lenient)", minimum=0, maximum=1)
    stable_frames: int = _setting(3, "frames a card pair must stay the same", minimum=1, maximum=100)
    shelf_frames: int = _setting(
        10, "frames the empty shelf must lie still to be captured (0 = never: cards are told from the shelf "
        "without it)", minimum=0, maximum=1000)


@dataclass(frozen=True)
class DisplayConfig:
    """``[display]``: the screen, chosen with luma.core's own command-line options."""

    luma: tuple[str, ...] = _setting(
        DEFAULT_LUMA, "luma.core command-line options, e.g. --display sh1106 --interface spi"
    )
    brightness: int = _setting(255, "contrast, 0 to 255", minimum=0, maximum=255)
    idle_dim_seconds: float = _setting(180.0, "dim the screen after this idle time (0 = never)", minimum=0)


@dataclass(frozen=True)
class ButtonsConfig:
    """``[buttons]``: four push buttons between a BCM GPIO pin and ground (internal pull-ups)."""

    backend: str = _setting(
        "auto",
        "auto, gpio, keyboard, fake or disabled",
        choices=FAMILIES["buttons"].choices,
    )
    pin_factory: str = _setting(
        "", 'gpiozero pin factory: lgpio, rpigpio or mock ("" = gpiozero chooses)',
        choices=("", "lgpio", "rpigpio", "mock"),
    )
    up: int = _setting(5, "BCM pin of the up button", minimum=0, maximum=27)
    down: int = _setting(6, "BCM pin of the down button", minimum=0, maximum=27)
    ok: int = _setting(13, "BCM pin of the ok button", minimum=0, maximum=27)
    back: int = _setting(19, "BCM pin of the back button", minimum=0, maximum=27)
    hold_seconds: float = _setting(1.0, "a press this long is a hold", minimum=0.1, maximum=10)
    bounce_seconds: float = _setting(0.03, "debounce time", minimum=0, maximum=1)


@dataclass(frozen=True)
class LedConfig:
    """``[led]``: the optional white LED lighting the cauldron, on a BCM GPIO pin (PWM)."""

    backend: str = _setting(
        "auto", "auto, gpio, fake or disabled", choices=FAMILIES["led"].choices
    )
    pin: int = _setting(18, "BCM pin of the LED", minimum=0, maximum=27)
    level: float = _setting(0.8, "brightness while scanning, 0 to 1", minimum=0, maximum=1)


@dataclass(frozen=True)
class ConsoleConfig:
    """``[console]``: the serial console (any pyserial port or URL)."""

    enabled: bool = _setting(False, "answer commands on the serial console (it starts locked: see pin)")
    url: str = _setting("/dev/ttyGS0", "pyserial port or URL: /dev/ttyGS0, /dev/ttyAMA0, loop://", nonempty=True)
    baudrate: int = _setting(115200, "serial speed", minimum=50, maximum=4_000_000)
    pin: str = _setting(
        "", "PIN that unlocks the console with 'unlock PIN' (staff, scripts); \"\": only the kit's"
        " buttons unlock it", pattern=r"([!-~]{4,64})?", secret=True,
    )


@dataclass(frozen=True)
class StorageConfig:
    """``[storage]``: where the current game and its log are kept (SQLite)."""

    state_dir: Path = _setting(Path("/var/lib/labkit"), "state directory (created with mode 0700)")


@dataclass(frozen=True)
class LogConfig:
    """``[log]``: logging to the journal (standard error)."""

    level: str = _setting(
        "info", "debug, info, warning or error", choices=("debug", "info", "warning", "error")
    )


@dataclass(frozen=True)
class Config:
    """The whole configuration: one frozen dataclass per TOML section."""

    game: GameConfig = field(default_factory=GameConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    reader: ReaderConfig = field(default_factory=ReaderConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    led: LedConfig = field(default_factory=LedConfig)
    console: ConsoleConfig = field(default_factory=ConsoleConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    log: LogConfig = field(default_factory=LogConfig)


# -- validation -------------------------------------------------------------------------------------

_SECTIONS: dict[str, type] = dict(typing.get_type_hints(Config))


def _field_types(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _describe(value: object) -> str:
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_describe(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "a table"
    return repr(value)


def _allowed(kind: Any, meta: Mapping[str, Any]) -> str:
    """What a setting accepts, in words."""
    if "choices" in meta:
        return "one of " + ", ".join(_toml_string(c) for c in meta["choices"])
    if "pattern" in meta:
        return '"" or 4 to 64 printable ASCII characters without spaces'
    lo, hi = meta.get("minimum"), meta.get("maximum")
    words = {
        bool: "true or false",
        int: "an integer",
        float: "a number",
        str: "a non-empty string" if meta.get("nonempty") else "a string",
        Path: "a path (a string)",
    }
    if kind == int | str:
        return "a device index (an integer from 0) or a device path (a string)"
    if kind == Path | None:
        return 'a path (a string, "" for none)'
    if kind == tuple[str, ...]:
        return "a list of strings"
    if kind == CameraControls:
        return 'a table of libcamera controls, e.g. {AfMode = "Manual", LensPosition = 5.0}'
    text = words.get(kind, str(kind))
    if lo is not None and hi is not None:
        return f"{text} from {lo:g} to {hi:g}"
    if lo is not None:
        return f"{text} from {lo:g}"
    return text


def _convert(kind: Any, value: object, meta: Mapping[str, Any]) -> object:
    """The value as the dataclass field wants it, or raise ValueError (the caller adds the context)."""
    if kind == int | str:
        if isinstance(value, str) and value:
            return value
        return _convert(int, value, meta)
    if kind == Path | None:
        if isinstance(value, (str, Path)):
            return Path(value) if str(value) else None
        raise ValueError
    if kind is Path:
        if isinstance(value, (str, Path)) and str(value):
            return Path(value)
        raise ValueError
    if kind == tuple[str, ...]:
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            return tuple(value)
        raise ValueError
    if kind == CameraControls:
        from drivers.camera.controls import parse_controls

        if not isinstance(value, Mapping):
            raise ValueError
        parse_controls(value)  # ValueError naming the control
        return dict(value)
    if kind is bool:
        if isinstance(value, bool):
            return value
        raise ValueError
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError
        converted: float = value
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError
        converted = float(value)
    elif kind is str:
        if not isinstance(value, str) or (meta.get("nonempty") and not value):
            raise ValueError
        if "pattern" in meta and not re.fullmatch(meta["pattern"], value):
            raise ValueError
        if "choices" in meta and value not in meta["choices"]:
            raise ValueError
        return value
    else:  # pragma: no cover - a field type this module does not know
        raise TypeError(f"unsupported setting type {kind!r}")
    if "minimum" in meta and converted < meta["minimum"]:
        raise ValueError
    if "maximum" in meta and converted > meta["maximum"]:
        raise ValueError
    return converted


def _parse_override(kind: Any, value: object) -> object:
    """A command-line override given as text, read as a TOML value where the setting is not a string."""
    if not isinstance(value, str) or kind in (str, Path, Path | None):
        return value
    try:
        return tomllib.loads(f"value = {value}")["value"]
    except tomllib.TOMLDecodeError:
        return value  # kept as text: a device path, or refused by _convert with the value named


def _build_section(name: str, cls: type, table: Mapping[str, object], source: str) -> Any:
    hints = _field_types(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, object] = {}
    for key, value in table.items():
        if key not in fields:
            raise ConfigError(f"{source}: unknown key [{name}] {key}")
        meta = fields[key].metadata
        try:
            values[key] = _convert(hints[key], value, meta)
        except ValueError as error:
            reason = f" ({error})" if str(error) else ""
            shown = "(hidden)" if meta.get("secret") else _describe(value)
            raise ConfigError(
                f"{source}: [{name}] {key} = {shown} is not allowed:"
                f" expected {_allowed(hints[key], meta)}{reason}"
            ) from None
    return cls(**values)


def _check(config: Config, source: str) -> None:
    """Rules across settings."""
    pins: dict[int, str] = {}
    wiring = []
    if config.buttons.backend not in ("disabled", "keyboard"):
        wiring += [(f"[buttons] {k}", getattr(config.buttons, k)) for k in ("up", "down", "ok", "back")]
    if config.led.backend != "disabled":
        wiring.append(("[led] pin", config.led.pin))
    for key, pin in wiring:
        if pin in pins:
            raise ConfigError(f"{source}: {key} = {pin} is already used by {pins[pin]}")
        pins[pin] = key


def config_from_dict(data: Mapping[str, object], source: str = "config") -> Config:
    """Validate a parsed TOML document (sections of keys) into a :class:`Config`.

    >>> config_from_dict({"game": {"level": "master"}}).game.level
    'master'
    >>> config_from_dict({"game": {"level": "expert"}}, "config x.toml")
    Traceback (most recent call last):
    ...
    firmware.config.ConfigError: config x.toml: [game] level = "expert" is not allowed: expected one of "apprentice", "master"
    """
    sections: dict[str, object] = {}
    for name, table in data.items():
        if name not in _SECTIONS:
            if isinstance(table, Mapping):
                raise ConfigError(f"{source}: unknown section [{name}]")
            raise ConfigError(f"{source}: unknown key {name} (settings belong in a [section])")
        if not isinstance(table, Mapping):
            raise ConfigError(f"{source}: {name} = {_describe(table)} is not allowed: expected a [{name}] table")
        sections[name] = _build_section(name, _SECTIONS[name], table, source)
    config = Config(**sections)  # type: ignore[arg-type]
    _check(config, source)
    return config


#: The most a configuration file may hold: the documented file with every key is about 3 KB.
MAX_CONFIG_BYTES = 64 * 1024
#: The deepest nesting of [ and { a file may use: [section] and a list of strings need 2.
MAX_CONFIG_NESTING = 8
#: The most dots outside strings on one line: "[a.b]" or "x = 0.5" need 1; 100,000 hang tomllib.
MAX_CONFIG_DOTS_PER_LINE = 32
#: Longer paths are shortened in error messages (the whole path would be the whole message).
MAX_SHOWN_PATH = 120

_STRINGS_AND_COMMENTS = re.compile(
    r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*', re.S
)


def _short_path(path: Path) -> str:
    """The path as an error message names it: whole when short, its ends when absurdly long.

    >>> _short_path(Path("/etc/labkit/labkit.toml"))
    '/etc/labkit/labkit.toml'
    >>> _short_path(Path("/" + "x" * 5000))[-30:]
    'xxxxxxxxxxxx (5001 characters)'
    """
    text = str(path)
    if len(text) <= MAX_SHOWN_PATH:
        return text
    return f"{text[:60]}…{text[-40:]} ({len(text)} characters)"


def _read_config_text(path: Path, source: str) -> str:
    """The file's text: a regular file of at most ``MAX_CONFIG_BYTES``, UTF-8, or ConfigError.

    Opened without blocking, so a FIFO or a device never hangs the kit; read with a bound, so
    ``/dev/zero`` never fills memory.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        reasons = {errno.ENOENT: "no such file", errno.EISDIR: "is a directory, not a file",
                   errno.EACCES: "permission denied", errno.ENOTDIR: "a part of the path is not a directory",
                   errno.ENAMETOOLONG: "the path is too long", errno.ELOOP: "too many symbolic links"}
        raise ConfigError(f"{source}: {reasons.get(error.errno or 0, error.strerror or str(error))}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise ConfigError(f"{source}: is a directory, not a file")
        if not stat.S_ISREG(mode):
            kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a socket" if stat.S_ISSOCK(mode) else "not a file")
            raise ConfigError(f"{source}: {kind}, not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_CONFIG_BYTES:
            chunk = os.read(fd, MAX_CONFIG_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise ConfigError(f"{source}: cannot be read: {error.strerror or error}") from None
    finally:
        os.close(fd)
    if size > MAX_CONFIG_BYTES:
        raise ConfigError(f"{source}: larger than {MAX_CONFIG_BYTES // 1024} KiB; a configuration is a few KB")
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{source}: not UTF-8 text ({error.reason} at byte {error.start})") from None


def _check_nesting(text: str, source: str) -> None:
    """Refuse nesting tomllib cannot parse in bounded time and stack (deep lists, long dotted keys)."""
    depth = 0
    bare = _STRINGS_AND_COMMENTS.sub(lambda found: '""' + "\n" * found.group().count("\n"), text)
    for number, line in enumerate(bare.splitlines(), start=1):
        if line.count(".") > MAX_CONFIG_DOTS_PER_LINE:
            raise ConfigError(f"{source}: line {number}: more than {MAX_CONFIG_DOTS_PER_LINE} dots:"
                              " keys nested too deeply")
        for char in line:
            if char in "[{":
                depth += 1
                if depth > MAX_CONFIG_NESTING:
                    raise ConfigError(f"{source}: line {number}: lists or tables nested more than"
                                      f" {MAX_CONFIG_NESTING} deep")
            elif char in "]}":
                depth = max(depth - 1, 0)


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    _check_nesting(text, source)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    except RecursionError:  # the nesting check should make this unreachable; never a traceback
        raise ConfigError(f"{source}: nested too deeply") from None


def load_config(path: Path | str | None = None, overrides: Mapping[str, object] | None = None) -> Config:
    """The configuration from a TOML file (``None``: the defaults) with command-line overrides applied.

    Overrides are ``{"section.key": value}``; a value given as text (from a command-line flag) is read
    as a TOML value when the setting is not a string, so ``{"camera.width": "320"}`` works.
    Raises :class:`ConfigError` naming the file (or ``overrides``), the key and the offending value.
    """
    data: dict[str, Any] = {}
    source = "config defaults"
    if path is not None:
        path = Path(path)
        source = f"config {_short_path(path)}"
        data = _parse_toml(_read_config_text(path, source), source)
    config = config_from_dict(data, source)
    if not overrides:
        return config
    for dotted, value in overrides.items():
        name, _, key = dotted.partition(".")
        if name not in _SECTIONS:
            raise ConfigError(f"config overrides: unknown section [{name}] in {dotted!r}")
        cls = _SECTIONS[name]
        hints = _field_types(cls)
        if key not in hints:
            raise ConfigError(f"config overrides: unknown key [{name}] {key}")
        table = dict(data.get(name, {}))
        table[key] = _parse_override(hints[key], value)
        data[name] = table
    return config_from_dict(data, "config overrides")


# -- dumping -----------------------------------------------------------------------------------------

HEADER = """\
# Alchemists lab kit configuration (/etc/labkit/labkit.toml).
# Every key is optional: a missing key takes the default shown here. Unknown keys are refused.
# `labkit config --dump` prints the effective configuration.
"""

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_string(text: str) -> str:
    """A TOML basic string.

    >>> print(_toml_string('say "hi"\\n'))
    "say \\"hi\\"\\n"
    """
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _toml_value(value: object) -> str:
    if value is None:
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot write {value!r} in a configuration")
        return repr(value)
    if isinstance(value, (str, Path)):
        return _toml_string(str(value))
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key} = {_toml_value(v)}" for key, v in value.items()) + "}"
    raise TypeError(f"cannot write {value!r} in a configuration")


def dump_config(config: Config, comments: bool = True) -> str:
    """The configuration as a TOML document; :func:`load_config` reads it back to the same config.

    >>> print(dump_config(Config(), comments=False).split("\\n\\n")[0])
    [game]
    rules = "alchemists"
    level = "apprentice"
    golem = false
    language = "en"
    """
    blocks = [HEADER] if comments else []
    for section in dataclasses.fields(Config):
        value = getattr(config, section.name)
        lines = []
        if comments:
            doc = (type(value).__doc__ or "").strip().splitlines()[0]
            lines.append("# " + doc.partition(": ")[2])
        lines.append(f"[{section.name}]")
        for setting in dataclasses.fields(value):
            if comments:
                lines.append(f"# {setting.metadata['doc']}")
            lines.append(f"{setting.name} = {_toml_value(getattr(value, setting.name))}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)
