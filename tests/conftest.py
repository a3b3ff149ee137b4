"""Shared fixtures: every test fails on an ERROR log line it did not expect."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


class ExpectedErrors:
    """Patterns of ERROR log messages a test expects; others fail the test."""

    def __init__(self) -> None:
        self.patterns: list[str] = []

    def expect(self, fragment: str) -> None:
        self.patterns.append(fragment)

    def allows(self, message: str) -> bool:
        return any(fragment in message for fragment in self.patterns)


@pytest.fixture
def expected_errors() -> ExpectedErrors:
    """Declare an ERROR log line the test provokes on purpose: ``expected_errors.expect("camera")``."""
    return ExpectedErrors()


@pytest.fixture(autouse=True)
def _fail_on_unexpected_error_logs(
    expected_errors: ExpectedErrors, caplog: pytest.LogCaptureFixture
) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    allowed = expected_errors
    unexpected = [
        record.getMessage()
        for record in caplog.get_records("call")
        if record.levelno >= logging.ERROR and not allowed.allows(record.getMessage())
    ]
    if unexpected:
        pytest.fail("unexpected ERROR log lines: " + "; ".join(unexpected), pytrace=False)
