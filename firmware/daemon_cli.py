"""``labkit run`` and ``labkit config``: start the daemon, or print the effective configuration.

    labkit run [--config FILE] [--simulate] [--headless] [--console PORT] [--state-dir DIR]
               [--frames-dir DIR] [--script FILE] [--log-file FILE|-]
    labkit config [--config FILE] --dump
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from firmware.config import DEFAULT_PATH, ConfigError, dump_config, load_config


class _ArgumentError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors become the command's JSON error, not argparse's exit.

    Abbreviated options are refused: ``--simulat`` is a typo, not ``--simulate``.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        raise _ArgumentError(f"{self.prog}: {message}")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="labkit", description="The Alchemists lab kit.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = commands.add_parser("run", help="run the kit (the daemon)")
    run.add_argument("--config", type=Path, help=f"configuration file (default {DEFAULT_PATH} if it exists)")
    run.add_argument("--simulate", action="store_true", help="no hardware: keyboard, terminal screen, replay camera")
    run.add_argument("--headless", action="store_true", help="with --simulate: no terminal screen or keyboard")
    run.add_argument("--console", metavar="PORT", help="serial console port or pyserial URL (enables the console)")
    run.add_argument("--state-dir", type=Path, help="where the game is kept")
    run.add_argument("--frames-dir", type=Path, help="write every displayed frame as a PNG here")
    run.add_argument("--script", type=Path, help="play a script of button presses and shelf contents, then stop")
    run.add_argument("--log-file", metavar="FILE", help="write the log here ('-': stderr); the terminal simulator's default is STATE_DIR/labkit.log, otherwise stderr")
    run.add_argument("--display", metavar="LUMA_ARGS", help="luma options for the screen, e.g. '--display ssd1351 --interface spi --width 128 --height 128'")
    config = commands.add_parser("config", help="show the effective configuration")
    config.add_argument("--config", type=Path, help=f"configuration file (default {DEFAULT_PATH} if it exists)")
    config.add_argument("--dump", action="store_true", required=True, help="print it as TOML")
    return parser


def _config_path(given: Path | None) -> Path | None:
    if given is not None:
        return given
    return DEFAULT_PATH if DEFAULT_PATH.exists() else None


def _error(kind: str, message: str) -> int:
    print(json.dumps({"error": {"kind": kind, "message": message}}, ensure_ascii=False), flush=True)
    return 2


def main(argv: Sequence[str]) -> int:
    """Run ``labkit run ...`` or ``labkit config ...``; returns the exit status."""
    try:
        args = _parser().parse_args(list(argv))
    except _ArgumentError as error:
        return _error("bad_command", str(error))
    overrides: dict[str, object] = {}
    if getattr(args, "state_dir", None) is not None:
        overrides["storage.state_dir"] = str(args.state_dir)
    if getattr(args, "console", None):
        overrides["console.url"] = args.console
        overrides["console.enabled"] = True
    if getattr(args, "display", None):
        overrides["display.luma"] = args.display.split()
    try:
        config = load_config(_config_path(args.config), overrides)
    except ConfigError as error:
        if args.command == "run" and not args.simulate:
            from firmware.runtime import leave_message_on_panel

            # the panel shows why the kit does not start (the default panel: its own options
            # may be what is refused); the journal has the whole line
            leave_message_on_panel(f"Configuration refused: {str(error).partition(': ')[2] or error}")
        return _error("bad_config", str(error))
    if args.command == "config":
        sys.stdout.write(dump_config(config))
        return 0
    from firmware.runtime import RunOptions, run_daemon

    options = RunOptions(
        simulate=args.simulate,
        headless=args.headless or not sys.stdin.isatty(),
        console_given=bool(args.console),
        frames_dir=args.frames_dir,
        script=args.script,
        state_dir_given=args.state_dir is not None,
        under_systemd="NOTIFY_SOCKET" in os.environ,
        log_file=args.log_file,
    )
    return run_daemon(config, options)
