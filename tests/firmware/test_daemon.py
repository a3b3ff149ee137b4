"""The daemon loop: events to the UI, frames to the display, failsafe, display and console faults."""

from __future__ import annotations

import threading

import pytest
from PIL import Image

from drivers.display import open_display
from drivers.led import open_led
from firmware.console import ConsoleProtocol, ShelfReading
from firmware import daemon as daemon_module
from firmware.daemon import Daemon, FailsafeUi
from firmware.screens.draw import render_view
from firmware.screens.text import Raw
from firmware.screens.views import MessageView
from firmware.session import GameSession
from firmware.store import MemoryStore
from firmware.ui.base import ButtonPress, Shelf


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class CountingUi:
    """A UI that shows how many buttons it saw, wants cards after 'ok', and breaks on 'back'."""

    def __init__(self) -> None:
        self.presses: list[ButtonPress] = []
        self.shelves: list[Shelf] = []
        self.faults: list[tuple[str, str | None]] = []
        self.console_events: list[object] = []

    def view(self) -> object:
        return MessageView(text=Raw(f"presses {len(self.presses)}"))

    def on_button(self, press: ButtonPress, now: float) -> None:
        if press.button == "back":
            raise RuntimeError("broken flow")
        self.presses.append(press)

    def on_shelf(self, shelf: Shelf, now: float) -> None:
        self.shelves.append(shelf)

    def on_tick(self, now: float) -> None:
        pass

    def on_fault(self, part: str, message: str | None, now: float) -> None:
        self.faults.append((part, message))

    def on_console(self, event: object, now: float) -> None:
        self.console_events.append(event)

    def cards_wanted(self) -> int:
        return 2 if any(p.button == "ok" for p in self.presses) else 0

    def brightness(self) -> int:
        return 200

    def language(self) -> str:
        return "en"


class FlakyDisplay:
    """A display that raises I/O errors while ``broken``."""

    def __init__(self) -> None:
        self.size = (128, 64)
        self.broken = False
        self.images: list[Image.Image] = []

    def contrast(self, level: int) -> None:
        pass

    def show(self, image: Image.Image) -> None:
        if self.broken:
            raise OSError(121, "Remote I/O error")
        self.images.append(image)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def make_daemon(ui: CountingUi, display: object, clock: FakeClock, **options: object) -> Daemon:
    protocol = ConsoleProtocol(GameSession(MemoryStore()), lambda: ShelfReading("empty"), pin="4711")
    protocol.handle("unlock 4711")  # the lock itself: test_console_lock.py
    return Daemon(lambda: ui, protocol, display, render_view, clock=clock, **options)  # type: ignore[arg-type]


def test_buttons_reach_the_ui_and_the_screen_follows(clock: FakeClock) -> None:
    ui = CountingUi()
    display = open_display("dummy")
    daemon = make_daemon(ui, display, clock)
    daemon.drain()
    first = display.device.image.copy()
    daemon.post_button(ButtonPress("up", "press"))
    daemon.post_shelf(Shelf("stable", ("fern", "toad")))
    daemon.drain()
    assert ui.presses == [ButtonPress("up", "press")] and ui.shelves == [Shelf("stable", ("fern", "toad"))]
    assert display.device.image.tobytes() != first.tobytes()
    assert daemon.displayed_frames == 2


def test_the_led_is_lit_while_cards_are_wanted(clock: FakeClock) -> None:
    ui, led = CountingUi(), open_led("fake")
    daemon = make_daemon(ui, open_display("dummy"), clock, led=led, led_level=0.5)
    daemon.drain()
    assert not led.is_lit
    daemon.post_button(ButtonPress("ok", "press"))
    daemon.drain()
    assert led.is_lit and led.level == 0.5


def test_a_failing_ui_gives_the_failsafe_screen_and_the_console_still_answers(clock: FakeClock, expected_errors) -> None:
    expected_errors.expect("user interface failed")
    ui = CountingUi()
    daemon = make_daemon(ui, open_display("dummy"), clock)
    daemon.post_button(ButtonPress("back", "press"))
    daemon.drain()
    assert isinstance(daemon.ui, FailsafeUi)
    assert "RuntimeError" in daemon.ui.view().text.text  # type: ignore[attr-defined]
    assert daemon.protocol.handle("restore DEMO") == {"code": "DEMO", "golem": False}
    daemon.post_button(ButtonPress("ok", "press"))
    daemon.drain()
    assert daemon.ui is ui


def test_the_console_is_answered_on_the_loop_thread(clock: FakeClock) -> None:
    daemon = make_daemon(CountingUi(), open_display("dummy"), clock)
    stop = threading.Event()
    loop = threading.Thread(target=daemon.run, args=(stop,))
    loop.start()
    try:
        assert daemon.ask_console("restore DEMO") == {"code": "DEMO", "golem": False}
        assert daemon.ask_console("mix mushroom toad") == {"potion": "R+"}
    finally:
        stop.set()
        loop.join()


def test_a_failing_display_is_reported_on_the_console_retried_and_recovered(clock: FakeClock, expected_errors) -> None:
    expected_errors.expect("display failed")
    ui, display, notices = CountingUi(), FlakyDisplay(), []
    daemon = make_daemon(ui, display, clock, on_console_notice=notices.append)
    daemon.drain()
    display.broken = True
    daemon.post_button(ButtonPress("up", "press"))
    daemon.drain()
    assert notices == [{"notice": {"part": "display", "message": "[Errno 121] Remote I/O error"}}]
    for _ in range(5):
        clock.advance(1.0)
        daemon.drain()
    assert len(notices) == 1  # reported once, not on every retry
    display.broken = False
    clock.advance(20.0)
    daemon.drain()
    assert notices[-1] == {"notice": {"part": "display", "message": None}}
    assert ui.faults[-1] == ("display", None)
    assert len(display.images) == 2


def test_a_screen_that_cannot_be_drawn_shows_an_error_screen(clock: FakeClock, expected_errors) -> None:
    expected_errors.expect("could not be drawn")

    class BadViewUi(CountingUi):
        def view(self) -> object:
            return object()

    display = FlakyDisplay()
    daemon = make_daemon(BadViewUi(), display, clock)
    daemon.drain()
    assert len(display.images) == 1


class HeldCamera:
    """A camera worker stand-in that keeps the readings asked for until the test answers them."""

    def __init__(self) -> None:
        self.asked: list[object] = []
        self.wanted: list[int] = []

    def want_cards(self, count: int) -> None:
        self.wanted.append(count)

    def request_reading(self, reply: object) -> None:
        self.asked.append(reply)

    def answer(self, shelf: ShelfReading) -> None:
        from firmware.camera_worker import Reading

        asked, self.asked = self.asked, []
        for reply in asked:
            reply(Reading(shelf))  # type: ignore[operator]


def ask_in_background(daemon: Daemon, line: str) -> tuple[threading.Thread, list[object]]:
    replies: list[object] = []
    thread = threading.Thread(target=lambda: replies.append(daemon.ask_console(line)))
    thread.start()
    return thread, replies


def test_a_console_line_that_reads_the_shelf_never_blocks_the_loop(clock: FakeClock) -> None:
    camera = HeldCamera()
    daemon = make_daemon(CountingUi(), open_display("dummy"), clock, camera=camera)
    daemon.protocol.handle("restore DEMO")
    scans = [ask_in_background(daemon, line) for line in ("scan", "mix", "sell R+")]
    while len(camera.asked) < 3:
        daemon.step(0.01)
    status, status_reply = ask_in_background(daemon, "status")
    while status.is_alive():
        daemon.step(0.01)  # answered while the three wait for the camera
    assert status_reply[0]["code"] == "DEMO"  # type: ignore[index]
    assert all(thread.is_alive() for thread, _ in scans)
    camera.answer(ShelfReading("ok", ("fern", "toad")))
    while any(thread.is_alive() for thread, _ in scans):
        daemon.step(0.01)
    (scan,), (mix,), (sell,) = (replies for _, replies in scans)
    assert scan == {"status": "ok", "ingredients": ["fern", "toad"]}
    assert mix == {"potion": "B+"} and sell == {"quality": "sign"}  # DEMO's fern + toad


def test_a_shelf_reading_that_never_comes_is_answered_no_camera(clock: FakeClock) -> None:
    camera = HeldCamera()
    daemon = make_daemon(CountingUi(), open_display("dummy"), clock, camera=camera)
    thread, replies = ask_in_background(daemon, "scan")
    while not camera.asked:
        daemon.step(0.01)
    clock.advance(daemon_module.SHELF_READ_TIMEOUT)
    while thread.is_alive():
        daemon.step(0.01)
    assert replies == [{"status": "no_camera", "ingredients": []}]
    camera.answer(ShelfReading("ok", ("fern", "toad")))  # too late: changes nothing
    daemon.drain()


def test_the_loop_tells_the_camera_how_many_cards_the_screen_wants(clock: FakeClock) -> None:
    camera = HeldCamera()
    daemon = make_daemon(CountingUi(), open_display("dummy"), clock, camera=camera)
    daemon.drain()
    daemon.post_button(ButtonPress("ok", "press"))
    daemon.drain()
    daemon.drain()
    assert camera.wanted == [0, 2]  # once per change, never polled from the camera's thread
