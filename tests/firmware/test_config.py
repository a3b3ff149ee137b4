"""The configuration file: defaults, validation with the key named, overrides, and the dump."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import firmware
from firmware.config import (
    DEFAULT_LUMA,
    ButtonsConfig,
    CameraConfig,
    Config,
    ConfigError,
    ConsoleConfig,
    DisplayConfig,
    GameConfig,
    LedConfig,
    LogConfig,
    ReaderConfig,
    StorageConfig,
    config_from_dict,
    dump_config,
    load_config,
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "labkit.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_are_the_documented_ones() -> None:
    config = load_config(None)
    assert config == Config()
    assert config.game == GameConfig("alchemists", "apprentice", False, "en")
    assert config.camera == CameraConfig("auto", 0, 640, 480, None)
    assert config.reader == ReaderConfig(None, 0.5, 3)
    assert config.display.luma == DEFAULT_LUMA == (
        "--display", "ssd1306", "--interface", "i2c", "--width", "128", "--height", "64")
    assert config.display == DisplayConfig(DEFAULT_LUMA, 255, 180.0)
    assert config.buttons == ButtonsConfig("auto", "", 5, 6, 13, 19, 1.0, 0.03)
    assert config.led == LedConfig("auto", 18, 0.8)
    assert config.console == ConsoleConfig(False, "/dev/ttyGS0", 115200, "")  # off unless configured
    assert config.storage == StorageConfig(Path("/var/lib/labkit"))
    assert config.log == LogConfig("info")


def test_empty_file_is_the_defaults(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, "")) == Config()


def test_config_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config().camera.width = 320  # type: ignore[misc]


def test_a_file_sets_values(tmp_path: Path) -> None:
    path = write(tmp_path, """
[game]
rules = "alchymisti"
level = "master"
golem = true
language = "sk"
[camera]
backend = "webcam"
device = "/dev/video2"
width = 320
replay_dir = "/srv/frames"
[reader]
tolerance = 1
[display]
luma = ["--display", "sh1106", "--interface", "spi"]
idle_dim_seconds = 0
[buttons]
pin_factory = "lgpio"
up = 17
[led]
backend = "disabled"
[console]
enabled = false
url = "loop://"
[storage]
state_dir = "/tmp/labkit"
[log]
level = "debug"
""")
    config = load_config(path)
    assert config.game == GameConfig("alchymisti", "master", True, "sk")
    assert config.camera == CameraConfig("webcam", "/dev/video2", 320, 480, Path("/srv/frames"))
    assert config.reader.tolerance == 1.0 and isinstance(config.reader.tolerance, float)
    assert config.display.luma == ("--display", "sh1106", "--interface", "spi")
    assert config.display.idle_dim_seconds == 0.0
    assert config.buttons.pin_factory == "lgpio" and config.buttons.up == 17
    assert config.led.backend == "disabled"
    assert config.console == ConsoleConfig(False, "loop://", 115200)
    assert config.storage.state_dir == Path("/tmp/labkit")
    assert config.log.level == "debug"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[camera]\nfps = 30\n", "config {path}: unknown key [camera] fps"),
        ("[kamera]\nwidth = 30\n", "config {path}: unknown section [kamera]"),
        ("width = 30\n", "config {path}: unknown key width (settings belong in a [section])"),
        ("camera = 3\n", "config {path}: camera = 3 is not allowed: expected a [camera] table"),
        ('[camera]\nwidth = "640"\n',
         'config {path}: [camera] width = "640" is not allowed: expected an integer from 16 to 4096'),
        ("[camera]\nwidth = 8\n",
         "config {path}: [camera] width = 8 is not allowed: expected an integer from 16 to 4096"),
        ("[camera]\nwidth = 640.0\n",
         "config {path}: [camera] width = 640.0 is not allowed: expected an integer from 16 to 4096"),
        ("[camera]\nwidth = true\n",
         "config {path}: [camera] width = true is not allowed: expected an integer from 16 to 4096"),
        ('[camera]\nbackend = "usb"\n',
         'config {path}: [camera] backend = "usb" is not allowed: expected one of "auto", "picamera2",'
         ' "webcam", "replay", "fake", "disabled"'),
        ("[camera]\ndevice = -1\n",
         "config {path}: [camera] device = -1 is not allowed: expected a device index (an integer from 0)"
         " or a device path (a string)"),
        ('[game]\ngolem = "yes"\n',
         'config {path}: [game] golem = "yes" is not allowed: expected true or false'),
        ('[game]\nlanguage = "de"\n',
         'config {path}: [game] language = "de" is not allowed: expected one of "en", "ru", "pl", "sk"'),
        ("[reader]\ntolerance = 1.5\n",
         "config {path}: [reader] tolerance = 1.5 is not allowed: expected a number from 0 to 1"),
        ("[reader]\ntolerance = nan\n",
         "config {path}: [reader] tolerance = nan is not allowed: expected a number from 0 to 1"),
        ("[reader]\nstable_frames = 0\n",
         "config {path}: [reader] stable_frames = 0 is not allowed: expected an integer from 1 to 100"),
        ('[display]\nluma = "--display ssd1306"\n',
         'config {path}: [display] luma = "--display ssd1306" is not allowed: expected a list of strings'),
        ("[display]\nluma = [1, 2]\n",
         "config {path}: [display] luma = [1, 2] is not allowed: expected a list of strings"),
        ("[display]\nbrightness = 256\n",
         "config {path}: [display] brightness = 256 is not allowed: expected an integer from 0 to 255"),
        ("[buttons]\nup = 40\n",
         "config {path}: [buttons] up = 40 is not allowed: expected an integer from 0 to 27"),
        ("[buttons]\nup = 6\n", "config {path}: [buttons] down = 6 is already used by [buttons] up"),
        ("[led]\npin = 13\n", "config {path}: [led] pin = 13 is already used by [buttons] ok"),
        ('[buttons]\npin_factory = "pigpio"\n',
         'config {path}: [buttons] pin_factory = "pigpio" is not allowed: expected one of "", "lgpio",'
         ' "rpigpio", "mock"'),
        ('[console]\nurl = ""\n',
         'config {path}: [console] url = "" is not allowed: expected a non-empty string'),
        ('[storage]\nstate_dir = ""\n',
         'config {path}: [storage] state_dir = "" is not allowed: expected a path (a string)'),
        ("[storage]\nstate_dir = 3\n",
         "config {path}: [storage] state_dir = 3 is not allowed: expected a path (a string)"),
        ('[log]\nlevel = "verbose"\n',
         'config {path}: [log] level = "verbose" is not allowed: expected one of "debug", "info",'
         ' "warning", "error"'),
        ("[game]\n[game.extra]\nx = 1\n", "config {path}: unknown key [game] extra"),
    ],
)
def test_bad_settings_are_refused_naming_key_value_and_what_is_allowed(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == message.format(path=path)
    assert isinstance(caught.value, ValueError)


def test_pins_may_be_shared_when_the_family_is_disabled(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[led]\nbackend = "disabled"\npin = 13\n'))
    assert config.led.pin == 13 == config.buttons.ok


def test_the_error_for_the_installed_file_reads_as_documented() -> None:
    with pytest.raises(ConfigError, match=r"^config overrides: unknown key \[camera\] fps$"):
        load_config(None, {"camera.fps": 30})
    with pytest.raises(ConfigError) as caught:
        config_from_dict({"camera": {"fps": 30}}, "config /etc/labkit/labkit.toml")
    assert str(caught.value) == "config /etc/labkit/labkit.toml: unknown key [camera] fps"


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(ConfigError, match=f"^config {path}: no such file$"):
        load_config(path)


def test_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory"):
        load_config(tmp_path)


def test_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "[camera]\nwidth = = 3\n")
    with pytest.raises(ConfigError, match=rf"^config {path}: not valid TOML: .*line 2"):
        load_config(path)


def test_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "labkit.toml"
    path.write_bytes(b'[console]\nurl = "\xff"\n')
    with pytest.raises(ConfigError, match=f"^config {path}: "):
        load_config(path)


def test_a_console_pin_is_printable_ascii_and_never_echoed_in_an_error(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, '[console]\npin = "4711"\n')).console.pin == "4711"
    for bad in ("12", "12 34", "12\u00a034", "x" * 65):
        path = write(tmp_path, f'[console]\npin = "{bad}"\n')
        with pytest.raises(ConfigError) as caught:
            load_config(path)
        assert "[console] pin = (hidden) is not allowed" in str(caught.value)
        assert bad not in str(caught.value).replace(str(path), "")  # the tmp path may hold the digits


@pytest.mark.parametrize(("make", "problem"), [
    (lambda tmp: Path("/etc/passwd/x"), "a part of the path is not a directory"),
    (lambda tmp: Path("/" + "x" * 5000), "the path is too long"),
    (lambda tmp: Path("/dev/zero"), "a device, not a regular file"),
    (lambda tmp: _fifo(tmp), "a FIFO, not a regular file"),
    (lambda tmp: _file(tmp, "x = 1\n" * 20000), "larger than 64 KiB"),
    (lambda tmp: _file(tmp, "x = " + "[" * 3000 + "]" * 3000), "line 1: lists or tables nested more than 8 deep"),
    (lambda tmp: _file(tmp, "x = " + "{a = " * 3000 + "1" + "}" * 3000), "nested more than 8 deep"),
    (lambda tmp: _file(tmp, "\n[" + ".".join(["a"] * 30000) + "]\n"), "line 2: more than 32 dots"),
    (lambda tmp: _file(tmp, ".".join(["a"] * 30000) + " = 1\n"), "line 1: more than 32 dots"),
])
def test_hostile_config_files_give_one_clear_line_quickly(tmp_path: Path, make: object, problem: str) -> None:
    """Nested lists (RecursionError), a path through a file, an overlong path, endless devices,
    a FIFO that would block, a dotted key tomllib takes minutes on: a ConfigError, nothing else."""
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert problem in message and "\n" not in message and len(message) < 300
    assert message.startswith(f"config {str(path)[:60]}")


def _fifo(tmp_path: Path) -> Path:
    import os

    path = tmp_path / "fifo.toml"
    os.mkfifo(path)
    return path


def _file(tmp_path: Path, text: str) -> Path:
    return write(tmp_path, text)


def test_strings_and_comments_do_not_count_as_nesting(tmp_path: Path) -> None:
    text = ('# [[[[[[[[[[ a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h.i\n'
            '[display]\nluma = ["--display", "[[[[[[[[[[", "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g"]\n')
    assert load_config(write(tmp_path, text)).display.luma[1] == "[[[[[[[[[["


def test_labkit_config_with_a_fifo_answers_one_json_line_without_hanging(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    fifo = _fifo(tmp_path)
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "config", "--config", str(fifo), "--dump"],
                          capture_output=True, text=True, timeout=60,
                          cwd=Path(firmware.__file__).parents[1])
    assert done.returncode == 2 and done.stderr == ""
    assert json.loads(done.stdout) == {"error": {"kind": "bad_config", "message":
                                                 f"config {fifo}: a FIFO, not a regular file"}}


def test_overrides_apply_over_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[camera]\nwidth = 320\n")
    config = load_config(path, {"storage.state_dir": "/tmp/x", "camera.height": "240",
                                "console.enabled": "false", "camera.device": "/dev/video1",
                                "reader.tolerance": 0.25})
    assert config.storage.state_dir == Path("/tmp/x")
    assert (config.camera.width, config.camera.height, config.camera.device) == (320, 240, "/dev/video1")
    assert config.console.enabled is False
    assert config.reader.tolerance == 0.25
    assert load_config(None, {"camera.device": "2"}).camera.device == 2
    assert load_config(None, {"display.luma": '["--display", "sh1106"]'}).display.luma == (
        "--display", "sh1106")


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"camera.fps": 3}, "config overrides: unknown key [camera] fps"),
        ({"kamera.width": 3}, "config overrides: unknown section [kamera] in 'kamera.width'"),
        ({"camera": 3}, "config overrides: unknown key [camera] "),
        ({"camera.width": "wide"},
         'config overrides: [camera] width = "wide" is not allowed: expected an integer from 16 to 4096'),
    ],
)
def test_bad_overrides_are_refused(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(None, overrides)
    assert str(caught.value) == message


def test_shipped_default_file_is_the_dump_of_the_defaults() -> None:
    shipped = Path(firmware.__file__).parent / "default_config.toml"
    assert shipped.read_text(encoding="utf-8") == dump_config(Config())
    assert load_config(shipped) == Config()


def test_dump_documents_every_key() -> None:
    text = dump_config(Config())
    document = tomllib.loads(text)
    for section in dataclasses.fields(Config):
        keys = [f.name for f in dataclasses.fields(getattr(Config(), section.name))]
        assert list(document[section.name]) == keys
    assert text.count("\n# ") >= sum(len(v) for v in document.values())


# -- round trip with hypothesis ------------------------------------------------------------------------

def _choice(cls: type, name: str) -> st.SearchStrategy[str]:
    return st.sampled_from({f.name: f for f in dataclasses.fields(cls)}[name].metadata["choices"])


_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=20)
_nonempty = _text.filter(bool)
_paths = _nonempty.filter(lambda t: "\x00" not in t).map(Path)
_pins = st.integers(0, 27)


def _unit(lo: float = 0, hi: float = 1) -> st.SearchStrategy[float]:
    return st.floats(lo, hi, allow_nan=False)


configs = st.builds(
    Config,
    game=st.builds(GameConfig, _choice(GameConfig, "rules"), _choice(GameConfig, "level"),
                   st.booleans(), _choice(GameConfig, "language")),
    camera=st.builds(CameraConfig, _choice(CameraConfig, "backend"),
                     st.one_of(st.integers(0, 2**40), _nonempty), st.integers(16, 4096),
                     st.integers(16, 4096), st.none() | _paths),
    reader=st.builds(ReaderConfig, st.none() | _paths, _unit(), st.integers(1, 100)),
    display=st.builds(DisplayConfig, st.lists(_text, max_size=6).map(tuple), st.integers(0, 255),
                      _unit(0, 1e9)),
    buttons=st.builds(ButtonsConfig, st.sampled_from(["keyboard", "disabled"]),
                      _choice(ButtonsConfig, "pin_factory"), _pins, _pins, _pins, _pins,
                      _unit(0.1, 10), _unit()),
    led=st.builds(LedConfig, _choice(LedConfig, "backend"), _pins, _unit()),
    console=st.builds(ConsoleConfig, st.booleans(), _nonempty, st.integers(50, 4_000_000),
                      st.one_of(st.just(""), st.from_regex(r"[!-~]{4,64}", fullmatch=True))),
    storage=st.builds(StorageConfig, _paths),
    log=st.builds(LogConfig, _choice(LogConfig, "level")),
)


@settings(max_examples=200, deadline=None)
@given(configs, st.booleans())
def test_loading_the_dump_gives_the_same_config(config: Config, comments: bool) -> None:
    text = dump_config(config, comments=comments)
    assert config_from_dict(tomllib.loads(text)) == config


@settings(max_examples=50, deadline=None)
@given(st.dictionaries(st.text(max_size=8), st.dictionaries(st.text(max_size=8), st.integers())))
def test_arbitrary_tables_are_refused_or_accepted_never_crash(data: dict[str, dict[str, int]]) -> None:
    try:
        config_from_dict(data)
    except ConfigError as error:
        assert str(error).startswith("config: ")


_toml_scalars = st.one_of(st.booleans(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False),
                          _text, st.lists(_text, max_size=3))
_keys = st.sampled_from(["rules", "level", "golem", "width", "device", "luma", "tolerance", "up",
                         "url", "state_dir", "level", "x"])
_sections = st.sampled_from([f.name for f in dataclasses.fields(Config)] + ["other"])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_sections, st.dictionaries(_keys, _toml_scalars, max_size=4), max_size=4))
def test_fuzzed_documents_give_a_config_or_a_config_error(data: dict[str, dict[str, object]]) -> None:
    try:
        config = config_from_dict(data, "config fuzz.toml")
    except ConfigError as error:
        text = str(error)
        assert text.startswith("config fuzz.toml: ")
        assert "unknown" in text or "is not allowed" in text or "already used" in text
    else:
        assert config_from_dict(tomllib.loads(dump_config(config))) == config


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzzed_files_give_a_config_or_a_config_error(tmp_path_factory: pytest.TempPathFactory,
                                                      content: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "labkit.toml"
    path.write_bytes(content)
    try:
        load_config(path)
    except ConfigError as error:
        assert str(error).startswith(f"config {path}: ")


def test_docstring_examples() -> None:
    import doctest

    import firmware.config

    result = doctest.testmod(firmware.config)
    assert result.failed == 0 and result.attempted > 0


def test_the_backends_offered_are_the_driver_families_own() -> None:
    from drivers.platform import FAMILIES, check_backend_name
    from firmware.config import ButtonsConfig, CameraConfig, LedConfig

    for name, section in (("camera", CameraConfig), ("buttons", ButtonsConfig), ("led", LedConfig)):
        choices = {f.name: f for f in dataclasses.fields(section)}["backend"].metadata["choices"]
        assert choices == FAMILIES[name].choices  # one list: the family's
        family = FAMILIES[name]
        for choice in choices[1:]:
            assert check_backend_name(name, choice) in (*family.real, *family.simulated, "disabled")


def test_camera_controls_are_libcamera_controls_by_name_checked_and_dumped(tmp_path: Path) -> None:
    from firmware.config import dump_config

    assert load_config(None).camera.controls == {"AfMode": "Continuous", "AfRange": "Macro"}
    path = tmp_path / "labkit.toml"
    path.write_text('[camera]\ncontrols = {AfMode = "Manual", LensPosition = 4.5}\n', encoding="utf-8")
    config = load_config(path)
    assert config.camera.controls == {"AfMode": "Manual", "LensPosition": 4.5}
    again = tmp_path / "again.toml"
    again.write_text(dump_config(config), encoding="utf-8")
    assert load_config(again) == config
    for text, named in [('{Focus = 3}', "unknown libcamera control 'Focus'"),
                        ('{AfMode = "Sharp"}', 'AfMode = "Sharp": expected one of Manual, Auto, Continuous'),
                        ('{LensPosition = 99}', "LensPosition = 99: expected 0 to 32"),
                        ('"macro"', "a table of libcamera controls")]:
        path.write_text(f"[camera]\ncontrols = {text}\n", encoding="utf-8")
        with pytest.raises(ConfigError, match=f"config {path}: \\[camera\\] controls = .* is not allowed: .*") as refused:
            load_config(path)
        assert named in str(refused.value)
