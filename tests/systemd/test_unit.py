"""The service unit and the install script: entry point, hardening, systemd-analyze, bash -n."""

from __future__ import annotations

import ast
import re
import shlex
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "labkit.service"
INSTALL = REPO / "systemd" / "install.sh"
VENV = "/opt/labkit/venv"

Unit = dict[str, dict[str, list[str]]]


def parse_unit(text: str) -> Unit:
    """Sections of key -> values (a key may repeat; an empty assignment resets the list)."""
    unit: Unit = defaultdict(lambda: defaultdict(list))
    section = ""
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, sep, value = line.partition("=")
        assert sep and section, f"line {number} is not KEY=VALUE in a section: {line!r}"
        values = unit[section][key.strip()]
        if value.strip():
            values.append(value.strip())
        else:
            values.clear()
            values.append("")
    return unit


@pytest.fixture(scope="module")
def unit() -> Unit:
    return parse_unit(UNIT.read_text(encoding="utf-8"))


def one(unit: Unit, section: str, key: str) -> str:
    values = unit[section][key]
    assert len(values) == 1, f"[{section}] {key} should be set once, is {values}"
    return values[0]


def console_scripts() -> dict[str, str]:
    """``name -> module:function`` from setup.py's entry_points, read with ast (never imported)."""
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setup":
            for keyword in node.keywords:
                if keyword.arg == "entry_points":
                    entry_points = ast.literal_eval(keyword.value)
                    scripts = {}
                    for spec in entry_points["console_scripts"]:
                        name, _, target = spec.partition("=")
                        scripts[name.strip()] = target.strip()
                    return scripts
    raise AssertionError("setup.py has no setup(entry_points=...)")


def test_exec_start_runs_the_installed_entry_point(unit: Unit) -> None:
    scripts = console_scripts()
    assert "labkit" in scripts
    command = shlex.split(one(unit, "Service", "ExecStart"))
    assert command == [f"{VENV}/bin/labkit", "run"]
    assert Path(command[0]).name in scripts
    module, _, function = scripts["labkit"].partition(":")
    source = REPO / (module.replace(".", "/") + ".py")
    assert source.is_file(), f"the entry point {scripts['labkit']} names a missing module"
    names = set()
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    assert function in names, f"{source.name} defines no {function}()"


def test_service_basics(unit: Unit) -> None:
    service = "Service"
    assert one(unit, service, "Type") == "notify"
    assert one(unit, service, "User") == "labkit"
    assert set(one(unit, service, "SupplementaryGroups").split()) == {"gpio", "i2c", "spi", "video", "dialout"}
    assert one(unit, service, "Restart") == "on-failure"
    assert int(one(unit, "Unit", "StartLimitBurst")) > 0
    assert int(one(unit, "Unit", "StartLimitIntervalSec")) > 0
    assert int(one(unit, service, "WatchdogSec")) >= 10
    assert one(unit, service, "StateDirectory") == "labkit"
    assert one(unit, service, "StateDirectoryMode") == "0700"
    assert one(unit, service, "UMask") == "0077"
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("PrivateNetwork", "yes"),
        ("DevicePolicy", "closed"),
        ("ProtectKernelTunables", "yes"),
        ("ProtectKernelModules", "yes"),
        ("ProtectControlGroups", "yes"),
        ("LockPersonality", "yes"),
        ("MemoryDenyWriteExecute", "yes"),
        ("CapabilityBoundingSet", ""),
        ("RestrictSUIDSGID", "yes"),
    ],
)
def test_hardening(unit: Unit, key: str, value: str) -> None:
    assert one(unit, "Service", key) == value


def test_sockets_and_system_calls(unit: Unit) -> None:
    families = one(unit, "Service", "RestrictAddressFamilies").split()
    assert "AF_UNIX" in families  # sd_notify
    assert not {"AF_INET", "AF_INET6", "AF_PACKET"} & set(families)
    assert "@system-service" in unit["Service"]["SystemCallFilter"]


def test_devices_are_listed_groups_only(unit: Unit) -> None:
    allowed = unit["Service"]["DeviceAllow"]
    groups = {}
    for entry in allowed:
        device, access = entry.split()
        assert access == "rw", entry
        assert device.startswith("char-"), f"{entry}: only character device groups, no block devices"
        groups[device] = access
    # what the kit drives: OLED (I2C/SPI), buttons and LED (gpiochip/gpiomem), camera (V4L2, media
    # controller, DMA heaps), serial console (USB gadget, PL011, mini UART)
    for needed in ["char-i2c", "char-spi", "char-gpiochip", "char-*gpiomem", "char-video4linux",
                   "char-media", "char-dma_heap", "char-ttyGS", "char-ttyAMA", "char-ttyS"]:
        assert needed in groups
    assert not {"char-mem", "char-*", "char-kmsg"} & set(groups)


def fake_root(tmp_path: Path) -> Path:
    """A file system root with the unit, the systemd units it depends on and a stub entry point."""
    root = tmp_path / "root"
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "usr/lib/systemd").mkdir(parents=True)
    for system_units in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")):
        if system_units.is_dir():
            shutil.copytree(system_units, root / "usr/lib/systemd/system", symlinks=True,
                            dirs_exist_ok=True)
            break
    stub = root / VENV.lstrip("/") / "bin/labkit"
    stub.parent.mkdir(parents=True)
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    shutil.copy(UNIT, root / "etc/systemd/system/labkit.service")
    return root


needs_systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")


@needs_systemd_analyze
def test_systemd_analyze_verify(tmp_path: Path) -> None:
    root = fake_root(tmp_path)
    result = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", str(root / "etc/systemd/system/labkit.service")],
        capture_output=True, text=True, timeout=120,
    )
    if "Failed to create" in result.stderr and "not found" in result.stderr:
        pytest.skip(f"systemd-analyze cannot load the base units here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "" and result.stderr.strip() == "", result.stdout + result.stderr


@needs_systemd_analyze
def test_systemd_analyze_security_exposure_stays_low(tmp_path: Path) -> None:
    root = fake_root(tmp_path)
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", f"--root={root}", "--no-pager",
         str(root / "etc/systemd/system/labkit.service")],
        capture_output=True, text=True, timeout=120,
    )
    found = re.search(r"Overall exposure level for labkit\.service: (\d+\.\d+) (\w+)", result.stdout)
    if found is None:
        pytest.skip(f"systemd-analyze security --offline is not supported here: {result.stderr.strip()}")
    assert float(found.group(1)) <= 1.5, result.stdout  # docs/install.md quotes 0.6 SAFE


def test_install_script_parses() -> None:
    subprocess.run(["bash", "-n", str(INSTALL)], check=True)
    text = INSTALL.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    assert INSTALL.stat().st_mode & 0o111, "install.sh should be executable"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_install_script_is_shellcheck_clean() -> None:
    result = subprocess.run(["shellcheck", "-S", "style", str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_install_script_matches_the_unit_and_the_package(unit: Unit) -> None:
    text = INSTALL.read_text(encoding="utf-8")
    assert re.search(r"^readonly prefix=/opt/labkit$", text, re.M)
    assert re.search(r"^readonly venv=\$prefix/venv$", text, re.M)
    assert "--system-site-packages" in text
    assert re.search(r"^readonly user=labkit$", text, re.M)
    assert one(unit, "Service", "User") == "labkit"
    groups = re.search(r"^readonly groups=\(([^)]*)\)$", text, re.M)
    assert groups is not None
    assert set(groups.group(1).split()) == set(one(unit, "Service", "SupplementaryGroups").split())
    assert "firmware/default_config.toml" in text and (REPO / "firmware/default_config.toml").is_file()
    assert "/etc/labkit/labkit.toml" in text


def test_lgpio_has_a_writable_working_directory(unit: Unit) -> None:
    # lgpio makes its notification pipe in $LG_WD or the working directory; `/` is read-only under
    # ProtectSystem=strict. The runtime directory is a tmpfs the service owns, emptied at stop.
    runtime = one(unit, "Service", "RuntimeDirectory")
    assert one(unit, "Service", "RuntimeDirectoryMode") == "0700"
    assert one(unit, "Service", "WorkingDirectory") == f"/run/{runtime}"
    environment = dict(a.partition("=")[::2] for line in unit["Service"]["Environment"]
                       for a in shlex.split(line))
    assert environment["LG_WD"] == f"/run/{runtime}"


def test_no_core_dumps(unit: Unit) -> None:
    # a core dump would hold the game's secret
    assert one(unit, "Service", "LimitCORE") == "0"


def test_started_after_the_modules_and_devices_of_the_boot(unit: Unit) -> None:
    after = {name for line in unit["Unit"]["After"] for name in line.split()}
    assert {"systemd-modules-load.service", "systemd-udev-trigger.service"} <= after


def run_install_on(tmp_path: Path, architecture: str) -> subprocess.CompletedProcess[str]:
    """install.sh with stand-ins that say the machine's architecture and that it is not root (so it
    stops before touching anything; apt-get and raspi-config fail if ever reached)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in {"dpkg": f"echo {architecture}", "id": "echo 1000",
                       "apt-get": "echo reached apt-get >&2; exit 99",
                       "raspi-config": "echo reached raspi-config >&2; exit 99"}.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    return subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, timeout=60,
                          env={"PATH": f"{bin_dir}:/usr/bin:/bin"})


def test_install_refuses_32_bit_pi_os_with_a_clear_reason(tmp_path: Path) -> None:
    result = run_install_on(tmp_path, "armhf")
    assert result.returncode != 0
    assert "32-bit Raspberry Pi OS (armhf)" in result.stderr and "64-bit" in result.stderr, result.stderr
    assert "reached" not in result.stderr


def test_install_goes_on_for_64_bit_pi_os(tmp_path: Path) -> None:
    result = run_install_on(tmp_path, "arm64")
    assert result.returncode != 0 and "run as root" in result.stderr, result.stderr  # past the check


def test_install_sets_the_i2c_bus_to_400_khz() -> None:
    text = INSTALL.read_text(encoding="utf-8")
    assert "echo 'dtparam=i2c_arm_baudrate=400000' >>\"$boot_config\"" in text
    assert "/boot/firmware/config.txt" in text
