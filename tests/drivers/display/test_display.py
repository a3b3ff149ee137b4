"""Displays opened with luma's options, the Display wrapper, the terminal renderer, frames."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from drivers.display import (
    DEFAULT_LUMA_ARGS, Display, DisplayError, FramesWriter, TerminalWriter,
    image_to_terminal_text, open_display, parse_luma_args, to_device_mode,
)

SSD1351 = ["--display", "ssd1351", "--interface", "spi", "--width", "128", "--height", "128"]


def test_default_options_are_an_ssd1306_128x64_on_i2c_bus_1_at_0x3c() -> None:
    args = parse_luma_args()
    assert (args.display, args.interface, args.width, args.height) == ("ssd1306", "i2c", 128, 64)
    assert (args.i2c_port, int(args.i2c_address, 16)) == (1, 0x3C)
    assert parse_luma_args(["--display", "sh1106"]).interface == "i2c"  # only what differs
    with pytest.raises(ValueError, match="list of strings"):
        parse_luma_args("--display sh1106")
    assert "--display" in DEFAULT_LUMA_ARGS


def test_bad_options_are_value_errors_not_exits() -> None:
    with pytest.raises(ValueError, match="display options: .*'nonesuch'"):
        parse_luma_args(["--display", "nonesuch"])
    with pytest.raises(ValueError, match="display options: unrecognized arguments: --bogus"):
        parse_luma_args(["--bogus"])


def test_options_from_a_luma_config_file(tmp_path: Path) -> None:
    conf = tmp_path / "sh1106.conf"
    conf.write_text("# luma config\n--display=sh1106\n--interface=i2c\n")
    assert parse_luma_args(["--config", str(conf)]).display == "sh1106"


def test_unknown_backend_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match="unknown display backend 'lcd'; valid: luma, dummy, "
                                         "emulator, fake, disabled"):
        open_display("lcd")


def test_missing_panel_is_display_error_naming_it() -> None:
    with pytest.raises(DisplayError, match=r"ssd1306 128x64 on I2C bus 99 at 0x3C: cannot open"):
        open_display("luma", luma_args=["--i2c-port", "99"])


def test_luma_backend_refuses_an_emulator_and_emulator_refuses_a_panel() -> None:
    with pytest.raises(ValueError, match="real panel"):
        open_display("luma", luma_args=["--display", "capture"])
    with pytest.raises(ValueError, match="needs --display one of capture"):
        open_display("emulator")


def test_dummy_follows_the_configured_panel() -> None:
    mono = open_display("fake")
    assert (mono.size, mono.mode) == ((128, 64), "1")
    colour = open_display("dummy", luma_args=SSD1351)
    assert (colour.size, colour.mode) == ((128, 128), "RGB")
    sh1106 = open_display("dummy", luma_args=["--display", "sh1106"])
    assert sh1106.mode == "1" and "sh1106" in sh1106.name
    rotated = open_display("dummy", luma_args=["--rotate", "1"])
    assert rotated.size == (64, 128)


def test_show_converts_to_the_device_mode_by_threshold() -> None:
    display = open_display("dummy")
    image = Image.new("RGB", (128, 64), (0, 0, 0))
    ImageDraw.Draw(image).rectangle((0, 0, 9, 9), fill=(200, 200, 200))
    ImageDraw.Draw(image).rectangle((20, 0, 29, 9), fill=(60, 60, 60))  # too dark: off
    display.show(image)
    shown = display.device.image
    assert display.last_image is not None and display.last_image.mode == "1"
    assert shown.getpixel((5, 5)) == 255 and shown.getpixel((25, 5)) == 0
    with pytest.raises(ValueError, match="image is 10x10, the display 128x64"):
        display.show(Image.new("1", (10, 10)))


def test_to_device_mode() -> None:
    grey = Image.new("L", (2, 1))
    grey.putpixel((1, 0), 128)
    assert [to_device_mode(grey, "1").getpixel((x, 0)) for x in (0, 1)] == [0, 255]
    assert to_device_mode(grey, "RGB").mode == "RGB"
    assert to_device_mode(grey, "L") is grey


def test_contrast_hide_and_show_screen() -> None:
    class Recorder:
        size, mode = (4, 2), "1"

        def __init__(self) -> None:
            self.calls: list[tuple[str, Any]] = []

        def __getattr__(self, name: str) -> Any:
            return lambda *args: self.calls.append((name, args))

    recorder = Recorder()
    display = Display(recorder, name="recorder")
    display.contrast(0)
    display.contrast(255)
    display.hide()
    display.show_screen()
    assert recorder.calls == [("contrast", (0,)), ("contrast", (255,)), ("hide", ()),
                              ("show", ())]
    for bad in (-1, 256, 1.5, True):
        with pytest.raises(ValueError, match="contrast"):
            display.contrast(bad)  # type: ignore[arg-type]
    display.close()
    assert recorder.calls[-1] == ("cleanup", ())
    with pytest.raises(DisplayError, match="closed"):
        display.show(Image.new("1", (4, 2)))
    display.close()


class FailingBus:
    """A luma serial interface whose I2C writes fail like a loose cable (errno 121)."""

    def __init__(self) -> None:
        self.fail = False

    def command(self, *cmd: int) -> None:
        if self.fail:
            raise OSError(121, "Remote I/O error")

    def data(self, data: Any) -> None:
        if self.fail:
            raise OSError(121, "Remote I/O error")

    def cleanup(self) -> None:
        pass


def test_io_errors_on_a_real_device_become_display_errors() -> None:
    from luma.oled.device import ssd1306

    bus = FailingBus()
    device = ssd1306(serial_interface=bus)
    display = Display(device, name="ssd1306 on a loose cable")
    display.show(Image.new("1", (128, 64)))
    bus.fail = True
    with pytest.raises(DisplayError, match="ssd1306 on a loose cable: display failed: .*Remote I/O"):
        display.show(Image.new("1", (128, 64), 1))
    with pytest.raises(DisplayError, match="contrast failed"):
        display.contrast(10)
    with pytest.raises(DisplayError, match="hide failed"):
        display.hide()
    assert isinstance(DisplayError("x"), OSError)
    bus.fail = False  # the part comes back: the same object works again
    display.show(Image.new("1", (128, 64)))
    bus.fail = True
    display.close()  # a failing cleanup is logged, not raised


def test_disabled_display_accepts_frames_and_feeds_sinks(tmp_path: Path) -> None:
    display = open_display("disabled", frames_dir=tmp_path)
    assert display.device is None and (display.size, display.mode) == ((128, 64), "1")
    display.show(Image.new("1", (128, 64)))
    display.contrast(5)
    display.hide()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frame-00001.png"]


def test_emulator_capture_device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    display = open_display("emulator", luma_args=[
        "--display", "capture", "--width", "32", "--height", "16", "--transform", "none",
        "--scale", "1"])
    display.show(Image.new("RGB", (32, 16), (255, 255, 255)))
    display.close()
    assert [p.name for p in tmp_path.glob("luma_*.png")]


def test_terminal_text_monochrome() -> None:
    image = Image.new("1", (4, 4))
    for xy in [(0, 0), (1, 1), (2, 0), (2, 1), (3, 3)]:
        image.putpixel(xy, 1)
    assert image_to_terminal_text(image) == "\u2580\u2584\u2588\n   \u2584"
    assert image_to_terminal_text(Image.new("1", (3, 2))) == ""
    assert image_to_terminal_text(Image.new("L", (2, 5), 255)).split("\n") == [
        "\u2588\u2588", "\u2588\u2588", "\u2580\u2580"]


def test_terminal_text_colour() -> None:
    image = Image.new("RGB", (1, 2))
    image.putpixel((0, 0), (255, 0, 0))
    image.putpixel((0, 1), (0, 0, 255))
    assert image_to_terminal_text(image) == (
        "\x1b[38;2;255;0;0m\x1b[48;2;0;0;255m\u2580\x1b[0m")
    image.putpixel((0, 0), (255, 255, 0))  # bright enough to be lit in monochrome
    assert image_to_terminal_text(image, color=False) == "\u2580"


def test_terminal_writer_redraws_in_place() -> None:
    stream = io.StringIO()
    writer = TerminalWriter(stream)
    writer.write(Image.new("1", (2, 2), 1))
    writer.write(Image.new("1", (2, 2), 0))
    out = stream.getvalue()
    assert out.count("\x1b[2J") == 1 and out.count("\x1b[H") == 2
    assert "\u2588\u2588\x1b[K\n" in out and "\x1b[H\x1b[K\n" in out
    plain = io.StringIO()
    TerminalWriter(plain, in_place=False).write(Image.new("1", (2, 2), 1))
    assert plain.getvalue() == "\u2588\u2588\n"


def test_display_feeds_the_terminal() -> None:
    stream = io.StringIO()
    display = open_display("dummy", luma_args=["--width", "4", "--height", "2"], terminal=stream)
    display.show(Image.new("1", (4, 2), 1))
    assert "\u2588\u2588\u2588\u2588" in stream.getvalue()


def test_frames_writer_numbers_and_skips_repeats(tmp_path: Path) -> None:
    writer = FramesWriter(tmp_path / "frames")
    black, white = Image.new("1", (4, 2), 0), Image.new("1", (4, 2), 1)
    assert writer.write(black) == tmp_path / "frames" / "frame-00001.png"
    assert writer.write(black.copy()) is None
    assert writer.write(white) == tmp_path / "frames" / "frame-00002.png"
    assert writer.write(black) == tmp_path / "frames" / "frame-00003.png"
    assert writer.write(black.convert("L")) is not None  # same pixels, other mode: new frame
    with Image.open(tmp_path / "frames" / "frame-00002.png") as saved:
        assert saved.size == (4, 2) and saved.convert("1").getpixel((0, 0))
    again = FramesWriter(tmp_path / "frames")  # a second run goes on after the last frame
    assert again.write(black) == tmp_path / "frames" / "frame-00005.png"
    assert not list((tmp_path / "frames").glob("*.tmp"))


def test_frames_writer_failure_is_display_error(tmp_path: Path) -> None:
    display = open_display("dummy", frames_dir=tmp_path)
    (tmp_path / "frame-00001.png.tmp").mkdir()  # the write cannot happen, even as root
    with pytest.raises(DisplayError, match="writing the frame to FramesWriter failed"):
        display.show(Image.new("1", (128, 64)))
