"""Displays: ``open_display(name, luma_args=..., terminal=..., frames_dir=...)``.

The panel is described by luma's own command-line options (``luma.core.cmdline``), kept as a list
of strings in the configuration; the default is an SSD1306 128x64 on I2C bus 1 at 0x3C::

    ["--display", "ssd1306", "--interface", "i2c", "--width", "128", "--height", "64"]

Backends: ``luma`` (a real panel: ssd1306, sh1106, ssd1351 and the rest of luma.oled),
``emulator`` (luma.emulator's ``capture``, ``gifanim``, ``pygame``, ``asciiblock``, ``asciiart``
named by ``--display``), ``dummy`` (luma's dummy device, the size and mode of the configured
panel; alias ``fake``) and ``disabled`` (no panel). The terminal renderer and the frames writer are
sinks any backend can feed.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from drivers.display.device import Display, DisplayError, FrameSink, to_device_mode
from drivers.display.frames import FramesWriter
from drivers.display.terminal import TerminalWriter, image_to_terminal_text
from drivers.platform import check_backend_name

__all__ = [
    "DEFAULT_LUMA_ARGS", "Display", "DisplayError", "FrameSink", "FramesWriter",
    "TerminalWriter", "image_to_terminal_text", "open_display", "parse_luma_args",
    "to_device_mode",
]

DEFAULT_LUMA_ARGS: tuple[str, ...] = (
    "--display", "ssd1306", "--interface", "i2c", "--i2c-port", "1", "--i2c-address", "0x3C",
    "--width", "128", "--height", "64",
)

# The pixel mode of panels whose luma device fixes it; others take ``--mode``.
PANEL_MODES = {
    "ssd1305": "1", "ssd1306": "1", "ssd1309": "1", "ssd1315": "1", "ssd1316": "1",
    "sh1106": "1", "sh1107": "1", "ch1115": "1", "ws0010": "1", "winstar_weh": "1",
    "ssd1331": "RGB", "ssd1351": "RGB", "ssd1325": "RGB", "ssd1327": "RGB",
}


class _Parser(argparse.ArgumentParser):
    """luma's parser, raising ValueError instead of exiting the process."""

    def error(self, message: str) -> NoReturn:
        raise ValueError(f"display options: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise ValueError(f"display options: {message or 'exit requested'}")


def parse_luma_args(luma_args: Sequence[str] = DEFAULT_LUMA_ARGS) -> argparse.Namespace:
    """luma's options parsed by ``luma.core.cmdline.create_parser``; ValueError naming a bad one.

    The kit's defaults (``DEFAULT_LUMA_ARGS``) come first, so ``luma_args`` only needs what
    differs: ``["--display", "sh1106"]``. ``--config FILE`` is honoured as in luma's own demos.
    """
    from luma.core import cmdline  # type: ignore[import-untyped]

    try:
        parser = cmdline.create_parser(
            description="Alchemists lab kit display",
            parser=_Parser(description="Alchemists lab kit display", add_help=False),
            autocomplete=False)
    except TypeError as exc:  # create_parser(description) alone: luma.core before 2.5.2
        from importlib.metadata import PackageNotFoundError, version

        try:
            installed = version("luma.core")
        except PackageNotFoundError:
            installed = "of unknown version"
        raise ValueError(f"display: luma.core {installed} is too old, the kit needs 2.5.2 or newer "
                         f"(pip install -U luma.core): {exc}") from exc
    if isinstance(luma_args, str):
        raise ValueError(f"display options must be a list of strings, not {luma_args!r}")
    args = [*DEFAULT_LUMA_ARGS, *luma_args]
    namespace: argparse.Namespace = parser.parse_args(args)
    if namespace.config:
        try:
            config = cmdline.load_config(namespace.config)
        except OSError as exc:
            raise ValueError(f"display options: cannot read --config {namespace.config}: "
                             f"{exc}") from exc
        namespace = parser.parse_args([*DEFAULT_LUMA_ARGS, *config, *luma_args])
    return namespace


def _display_name(args: argparse.Namespace) -> str:
    where = ""
    if args.interface == "i2c":
        where = f" on I2C bus {args.i2c_port} at {args.i2c_address}"
    elif args.interface in ("spi", "gpio_cs_spi"):
        where = f" on SPI {args.spi_port}.{args.spi_device}"
    return f"{args.display} {args.width}x{args.height}{where}"


def open_display(name: str = "luma", *, luma_args: Sequence[str] = DEFAULT_LUMA_ARGS,
                 terminal: TextIO | None = None, terminal_color: bool | None = None,
                 frames_dir: str | os.PathLike[str] | None = None,
                 sinks: Sequence[FrameSink] = ()) -> Display:
    """A display backend by name, configured by luma's options; sinks fed every frame.

    ``terminal`` draws each frame on that text stream (``TerminalWriter``); ``frames_dir`` saves
    each new frame as a numbered PNG (``FramesWriter``). Opening a panel that is missing or
    refused raises ``DisplayError``; bad options raise ``ValueError``.
    """
    backend = check_backend_name("display", name)
    args = parse_luma_args(luma_args)
    from luma.core import cmdline

    types = cmdline.get_display_types()
    all_sinks: list[FrameSink] = list(sinks)
    if terminal is not None:
        all_sinks.append(TerminalWriter(terminal, color=terminal_color))
    if frames_dir is not None:
        all_sinks.append(FramesWriter(frames_dir))
    size = (args.width, args.height)
    if args.rotate % 2:
        size = (args.height, args.width)
    mode = PANEL_MODES.get(args.display, args.mode)
    label = _display_name(args)

    if backend == "disabled":
        return Display(None, name=f"{label} (disabled)", sinks=tuple(all_sinks), size=size,
                       mode=mode)
    if backend == "dummy":
        from luma.core.device import dummy  # type: ignore[import-untyped]

        device: Any = dummy(width=args.width, height=args.height, rotate=args.rotate, mode=mode)
        return Display(device, name=f"{label} (dummy)", sinks=tuple(all_sinks))

    emulated = args.display in types.get("emulator", [])
    if backend == "emulator" and not emulated:
        raise ValueError(f"display backend 'emulator' needs --display one of "
                         f"{', '.join(types.get('emulator', []))}, not {args.display!r}")
    if backend == "luma" and (emulated or args.display in types.get("core", [])):
        raise ValueError(f"display backend 'luma' drives a real panel; --display "
                         f"{args.display!r} is not one (use the 'emulator' backend)")
    if emulated:
        label = f"{args.display} emulator {args.width}x{args.height}"
    try:
        device = cmdline.create_device(args, display_types=types)
    except Exception as exc:  # luma.core.error.*, OSError, RuntimeError from the GPIO library
        raise DisplayError(f"{label}: cannot open: {exc}") from exc
    if device is None:
        raise DisplayError(f"{label}: luma has no device {args.display!r}")
    return Display(device, name=label, sinks=tuple(all_sinks))
