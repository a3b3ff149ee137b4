"""The service's command line run as the unit runs it: its working directory, its environment, a user
without root, and the real gpio backend (the lgpio and gpiozero wheels).

lgpio's import creates its notification pipe ``.lgd-nfyN`` in ``$LG_WD`` or else the working
directory; under ``ProtectSystem=strict`` the default working directory ``/`` is read-only, and the
buttons, the LED and luma's SPI path (RPi.GPIO, i.e. rpi-lgpio) never start. On a machine without
``/dev/gpiochip*`` what can be exercised is that import (the pipe made where the unit says) and the
pin factory then failing on the missing board, not on the pipe.
"""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.systemd.test_unit import UNIT, VENV, Unit, parse_unit

pytest.importorskip("lgpio", reason="the real lgpio wheel is not installed (pip install -e '.[test]')")

# What systemd gives every system service before the unit's own Environment= (systemd.exec(5),
# "Environment Variables in Spawned Processes"): PATH, and the user's HOME, USER, LOGNAME, SHELL.
SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"
UNPRIVILEGED = "nobody"
RUN_SECONDS = 60  # the command starts the whole kit (numpy, OpenCV, Pillow) on a slow CI machine


def runas_prefix() -> list[str]:
    """The command prefix that runs as a user without root, or a skip saying why there is none."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root and util-linux's setpriv is missing: no way to drop to a plain user")
    try:
        user = pwd.getpwnam(UNPRIVILEGED)
    except KeyError:
        pytest.skip(f"running as root and there is no {UNPRIVILEGED!r} user to drop to")
    return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups",
            "--inh-caps=-all", "--"]


def runas_ids() -> tuple[int, int]:
    if os.geteuid() != 0:
        return os.geteuid(), os.getegid()
    user = pwd.getpwnam(UNPRIVILEGED)
    return user.pw_uid, user.pw_gid


class ServiceRoot:
    """A stand-in for the machine's /run and /var/lib: the unit's directories, made as systemd does."""

    def __init__(self, base: Path, unit: Unit) -> None:
        self.base = base
        self.unit = unit
        self.uid, self.gid = runas_ids()

    def path(self, unit_path: str) -> Path:
        """Where an absolute path of the unit lies in this root (``/run/x`` -> ``BASE/run/x``)."""
        return self.base / unit_path.lstrip("/")

    def make_directory(self, unit_path: str, mode: str) -> Path:
        directory = self.path(unit_path)
        directory.mkdir(parents=True, exist_ok=True)
        os.chown(directory, self.uid, self.gid)
        directory.chmod(int(mode, 8))
        return directory

    def directories(self) -> dict[str, Path]:
        """RuntimeDirectory= and StateDirectory=, created as systemd creates them before ExecStart."""
        service = self.unit["Service"]
        made = {}
        for key, top, variable in (("RuntimeDirectory", "/run", "RUNTIME_DIRECTORY"),
                                   ("StateDirectory", "/var/lib", "STATE_DIRECTORY")):
            for name in service.get(key, []):
                mode = (service.get(f"{key}Mode") or ["0755"])[0]
                made[variable] = self.make_directory(f"{top}/{name}", mode)
        return made

    def working_directory(self) -> Path:
        """WorkingDirectory= mapped into this root; a system service without one runs in ``/``."""
        values = self.unit["Service"].get("WorkingDirectory", [])
        return self.path(values[0]) if values else Path("/")

    def environment(self, directories: dict[str, Path]) -> dict[str, str]:
        env = {"PATH": SYSTEMD_PATH, "HOME": str(directories.get("STATE_DIRECTORY", "/")),
               "USER": UNPRIVILEGED, "LOGNAME": UNPRIVILEGED, "SHELL": "/usr/sbin/nologin"}
        env.update({name: str(path) for name, path in directories.items()})
        for line in self.unit["Service"].get("Environment", []):
            for assignment in shlex.split(line):
                name, _, value = assignment.partition("=")
                env[name] = str(self.path(value)) if value.startswith(("/run/", "/var/lib/")) else value
        return env


@pytest.fixture
def service_root() -> Iterator[ServiceRoot]:
    # not pytest's tmp_path: it lies under a directory only root may enter
    base = Path(tempfile.mkdtemp(prefix="labkit-service-"))
    base.chmod(0o755)
    try:
        yield ServiceRoot(base, parse_unit(UNIT.read_text(encoding="utf-8")))
    finally:
        shutil.rmtree(base, ignore_errors=True)


def run_service(root: ServiceRoot, cwd: Path, env: dict[str, str], state: Path) -> tuple[int, str, list[str]]:
    """The unit's ExecStart, as the unit's user would run it, with a test configuration: buttons on
    the real gpio backend (lgpio), everything else absent; a script stops it after a moment.
    Returns the exit status, its log (stderr) and the READY/STATUS lines it sent to systemd."""
    config = root.base / "labkit.toml"
    config.write_text(
        '[buttons]\nbackend = "gpio"\npin_factory = "lgpio"\n'
        '[led]\nbackend = "disabled"\n[camera]\nbackend = "disabled"\n[console]\nenabled = false\n',
        encoding="utf-8")
    script = root.base / "stop.txt"
    script.write_text("wait 0.2\n", encoding="utf-8")
    for path in (config, script):
        path.chmod(0o644)
    command = shlex.split(root.unit["Service"]["ExecStart"][0])
    assert command[0].startswith(VENV + "/")
    installed = Path(sys.prefix) / command[0][len(VENV) + 1:]
    if not installed.exists():
        pytest.skip(f"the kit is not installed in this venv ({installed} missing)")
    notify = root.base / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(notify))
        notify.chmod(0o777)
        listener.settimeout(0)
        env = {**env, "NOTIFY_SOCKET": str(notify)}
        result = subprocess.run(
            [*runas_prefix(), str(installed), *command[1:], "--config", str(config),
             "--state-dir", str(state), "--script", str(script)],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=RUN_SECONDS, stdin=subprocess.DEVNULL)
        messages = []
        while True:
            try:
                messages.append(listener.recv(4096).decode())
            except BlockingIOError:
                break
    if result.returncode != 0 and "Permission denied" in result.stderr and not result.stderr.count("\n") > 2:
        pytest.skip(f"the venv's interpreter cannot be run by {UNPRIVILEGED}: {result.stderr.strip()}")
    return result.returncode, result.stderr, messages


def pipes_in(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir()
                  if p.name.startswith(".lgd-nfy") and stat.S_ISFIFO(p.lstat().st_mode))


def test_the_service_command_opens_the_real_gpio_backend_as_the_unit_runs_it(service_root: ServiceRoot) -> None:
    directories = service_root.directories()
    cwd = service_root.working_directory()
    env = service_root.environment(directories)
    status, log, notices = run_service(service_root, cwd, env, directories["STATE_DIRECTORY"])
    assert status == 0, log
    assert any("READY=1" in notice for notice in notices), (notices, log)
    # lgpio was imported and its pipe made: the pin factory got as far as the GPIO chip
    assert ".lgd-nfy" not in log, log
    assert "FileNotFoundError" not in log and "BadPinFactory" not in log, log
    if not list(Path("/dev").glob("gpiochip*")):
        # gpiozero's LGPIOFactory then looks for the board (and lgpio for /dev/gpiochip0)
        assert "buttons unavailable" in log, log
        assert "Pi revision" in log or "gpiochip" in log, log
    else:  # a Raspberry Pi: the buttons opened
        assert "buttons unavailable" not in log, log
    lg_wd = Path(env.get("LG_WD", cwd))
    assert pipes_in(lg_wd), f"no lgpio notification pipe in {lg_wd}: {sorted(os.listdir(lg_wd))}"
    assert lg_wd == directories["RUNTIME_DIRECTORY"], "the pipe belongs in the runtime directory (tmpfs)"


def test_without_the_units_working_directory_the_real_lgpio_cannot_start(service_root: ServiceRoot) -> None:
    # the failure the unit's WorkingDirectory= and LG_WD= prevent, reproduced with the real wheels:
    # a user without root in `/`
    directories = service_root.directories()
    env = {k: v for k, v in service_root.environment(directories).items() if k != "LG_WD"}
    status, log, _ = run_service(service_root, Path("/"), env, directories["STATE_DIRECTORY"])
    assert status == 0, log
    assert "buttons unavailable" in log and ".lgd-nfy" in log, log


def test_lumas_spi_path_rpi_gpio_imports_in_the_units_working_directory(service_root: ServiceRoot) -> None:
    # luma's SPI interface imports RPi.GPIO, which on bookworm is rpi-lgpio over lgpio: same pipe
    python = str(Path(sys.prefix) / "bin" / "python")
    directories = service_root.directories()
    env = service_root.environment(directories)
    probe = [*runas_prefix(), python, "-c", "import RPi.GPIO"]
    fixed = subprocess.run(probe, cwd=service_root.working_directory(), env=env, capture_output=True,
                           text=True, timeout=RUN_SECONDS)
    broken = subprocess.run(probe, cwd="/", env={k: v for k, v in env.items() if k != "LG_WD"},
                            capture_output=True, text=True, timeout=RUN_SECONDS)
    if "No module named 'RPi'" in fixed.stderr:
        pytest.skip("rpi-lgpio is not installed (pip install -e '.[test]')")
    assert ".lgd-nfy" in broken.stderr, broken.stderr
    # past the pipe: on a Raspberry Pi it imports; elsewhere rpi-lgpio refuses the board
    assert ".lgd-nfy" not in fixed.stderr, fixed.stderr
    assert fixed.returncode == 0 or "only be run on a Raspberry Pi" in fixed.stderr, fixed.stderr
