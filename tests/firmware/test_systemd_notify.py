"""sd_notify against a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware import systemd_notify
from firmware.systemd_notify import Notifier, watchdog_interval


@pytest.fixture
def systemd_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """A bound datagram socket at a path, announced in $NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield server
    server.close()


def receive(server: socket.socket) -> str:
    return server.recv(4096).decode("utf-8")


def test_ready_status_watchdog_stopping(systemd_socket: socket.socket) -> None:
    assert systemd_notify.ready("Ready: new game")
    assert receive(systemd_socket) == "READY=1\nSTATUS=Ready: new game"
    assert systemd_notify.watchdog()
    assert receive(systemd_socket) == "WATCHDOG=1"
    assert systemd_notify.status("camera lost,\nretrying")
    assert receive(systemd_socket) == "STATUS=camera lost, retrying"
    assert systemd_notify.ready()
    assert receive(systemd_socket) == "READY=1"
    assert systemd_notify.stopping("bye")
    assert receive(systemd_socket) == "STOPPING=1\nSTATUS=bye"
    assert systemd_notify.notify("EXTEND_TIMEOUT_USEC=5000000", "STATUS=slow camera")
    assert receive(systemd_socket) == "EXTEND_TIMEOUT_USEC=5000000\nSTATUS=slow camera"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="abstract sockets are Linux-only")
def test_abstract_socket_name(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"labkit-test-{uuid.uuid4().hex}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind("\0" + name)
    server.settimeout(5)
    try:
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert systemd_notify.ready()
        assert receive(server) == "READY=1"
    finally:
        server.close()


def test_no_op_outside_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert systemd_notify.ready("x") is False
    assert systemd_notify.watchdog() is False
    assert Notifier({}).enabled is False
    monkeypatch.setenv("NOTIFY_SOCKET", "")
    assert systemd_notify.watchdog() is False


def test_messages_are_single_key_value_lines(systemd_socket: socket.socket) -> None:
    with pytest.raises(ValueError, match="KEY=VALUE"):
        systemd_notify.notify("READY")
    with pytest.raises(ValueError, match="KEY=VALUE"):
        systemd_notify.notify("STATUS=a\nREADY=1")


def test_a_vanished_socket_warns_once_and_never_raises(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.enabled
    assert notifier.notify("WATCHDOG=1") is False
    assert notifier.notify("WATCHDOG=1") is False
    warnings = [r for r in caplog.records if "cannot notify systemd" in r.getMessage()]
    assert len(warnings) == 1
    notifier.close()


def test_the_socket_is_reused_and_recovers(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    notifier = Notifier({"NOTIFY_SOCKET": str(path)})
    assert notifier.notify("WATCHDOG=1") is False  # systemd not listening yet
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.settimeout(5)
    try:
        for _ in range(3):
            assert notifier.notify("WATCHDOG=1")
            assert receive(server) == "WATCHDOG=1"
    finally:
        server.close()
        notifier.close()


def test_unsupported_address_is_ignored(caplog: pytest.LogCaptureFixture) -> None:
    assert Notifier({"NOTIFY_SOCKET": "vsock:2:1234"}).notify("READY=1") is False
    assert "unsupported NOTIFY_SOCKET" in caplog.text


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, None),
        ({"WATCHDOG_USEC": "30000000"}, 30.0),
        ({"WATCHDOG_USEC": "500000", "WATCHDOG_PID": str(os.getpid())}, 0.5),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid() + 1)}, None),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "x"}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
    ],
)
def test_watchdog_interval(environ: dict[str, str], expected: float | None) -> None:
    assert watchdog_interval(environ) == expected


def test_watchdog_interval_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 20.0
    monkeypatch.delenv("WATCHDOG_USEC")
    assert watchdog_interval() is None


def test_docstring_examples() -> None:
    import doctest

    import firmware.systemd_notify

    result = doctest.testmod(firmware.systemd_notify)
    assert result.failed == 0 and result.attempted > 0
