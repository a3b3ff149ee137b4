"""Buttons: gpiozero with mock pins, the keyboard on a pty, the queue backend."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from gpiozero import Button
from gpiozero.pins.mock import MockFactory, MockPin

from drivers.buttons import ButtonEvent, Buttons, ButtonsError, Debouncer, open_buttons
from drivers.buttons.gpio import DEFAULT_PINS
from drivers.buttons.keyboard import ESCAPE_WAIT, KEYS, key_events, split_keys, unfinished_escape

P, R, H, S = "press", "release", "hold", "stuck"


def ev(button: str, kind: str) -> ButtonEvent:
    return ButtonEvent(button, kind)  # type: ignore[arg-type]


def next_events(buttons: Buttons, count: int) -> list[ButtonEvent]:
    """The next ``count`` events, each waited for (generously: no timing is asserted)."""
    events = []
    for _ in range(count):
        event = buttons.get(timeout=5)
        assert event is not None, f"only {events} arrived"
        events.append(event)
    return events


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


def test_event_values_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown button 'left'"):
        ButtonEvent("left", "press")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown button event 'click'"):
        ButtonEvent("ok", "click")  # type: ignore[arg-type]


def test_unknown_backend_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match="unknown buttons backend 'joystick'; valid: gpio, "
                                         "keyboard, queue, fake, disabled"):
        open_buttons("joystick")


def test_default_wiring() -> None:
    assert DEFAULT_PINS == {"up": 5, "down": 6, "ok": 13, "back": 19}


def test_gpio_press_and_release_on_mock_pins(factory: MockFactory) -> None:
    with open_buttons("gpio", pin_factory=factory, bounce_time=None, hold_time=None) as buttons:
        factory.pin(13).drive_low()
        assert buttons.is_pressed("ok")
        factory.pin(13).drive_high()
        factory.pin(5).drive_low()
        factory.pin(5).drive_high()
        factory.pin(19).drive_low()
        assert buttons.drain() == [ev("ok", P), ev("ok", R), ev("up", P), ev("up", R),
                                   ev("back", P)]


def test_gpio_custom_pins_keep_other_defaults(factory: MockFactory) -> None:
    with open_buttons("gpio", pin_factory=factory, pins={"ok": "GPIO21"}) as buttons:
        factory.pin(21).drive_low()
        factory.pin(6).drive_low()
        assert buttons.drain() == [ev("ok", P), ev("down", P)]


def test_gpio_hold_then_release(factory: MockFactory) -> None:
    with open_buttons("gpio", pin_factory=factory, bounce_time=None,
                      hold_time=0.02) as buttons:
        factory.pin(6).drive_low()
        assert next_events(buttons, 2) == [ev("down", P), ev("down", H)]
        factory.pin(6).drive_high()
        assert buttons.drain() == [ev("down", R)]


def test_gpio_release_before_hold_time_gives_no_hold(factory: MockFactory) -> None:
    with open_buttons("gpio", pin_factory=factory, bounce_time=None, hold_time=30) as buttons:
        factory.pin(6).drive_low()
        factory.pin(6).drive_high()
        assert buttons.drain() == [ev("down", P), ev("down", R)]


def test_gpio_bouncing_contact_gives_one_press_and_one_release(factory: MockFactory) -> None:
    with open_buttons("gpio", pin_factory=factory, bounce_time=0.05,
                      hold_time=None) as buttons:
        pin = factory.pin(13)
        pin.drive_low()
        pin.drive_high()  # bounces, all inside the window
        pin.drive_low()
        pin.drive_high()  # the real release, also inside the window: not lost
        assert next_events(buttons, 2) == [ev("ok", P), ev("ok", R)]
        assert buttons.drain() == []


def test_debouncer_rereads_after_the_window() -> None:
    d = Debouncer(0.05)
    assert d.update(True, now=0.0) is True
    assert d.update(False, now=0.01) is None and d.settle_at == 0.05
    assert d.update(False, now=0.05, settling=True) is False
    assert d.update(False, now=0.2) is None  # no change
    assert Debouncer(None).update(True, now=0.0) is True


def test_gpio_stuck_button_is_reported(factory: MockFactory) -> None:
    with open_buttons("gpio", pin_factory=factory, bounce_time=None, hold_time=None,
                      stuck_after=0.02) as buttons:
        factory.pin(19).drive_low()
        assert next_events(buttons, 2) == [ev("back", P), ev("back", S)]
        factory.pin(19).drive_high()
        assert buttons.drain() == [ev("back", R)]


def test_gpio_button_down_at_start_is_pressed_then_stuck(factory: MockFactory) -> None:
    class HeldDownPin(MockPin):
        """A contact shorted to ground: the pull-up cannot raise it."""

        def _set_pull(self, value: str) -> None:
            self._pull = value
            self._change_state(False)

    factory.pin(5, pin_class=HeldDownPin)
    with open_buttons("gpio", pin_factory=factory, hold_time=None,
                      stuck_after=0.02) as buttons:
        assert next_events(buttons, 2) == [ev("up", P), ev("up", S)]


def test_gpio_pin_in_use_is_buttons_error(factory: MockFactory) -> None:
    other = Button(6, pin_factory=factory)
    try:
        with pytest.raises(ButtonsError, match="cannot use pin 6 for 'down'"):
            open_buttons("gpio", pin_factory=factory)
        assert isinstance(ButtonsError("x"), OSError)
    finally:
        other.close()
    open_buttons("gpio", pin_factory=factory).close()  # the pins it took were given back


def test_gpio_bad_configuration(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="unknown button 'left'"):
        open_buttons("gpio", pin_factory=factory, pins={"left": 4})
    with pytest.raises(ValueError, match="share a pin"):
        open_buttons("gpio", pin_factory=factory, pins={"up": 6})
    with pytest.raises(ValueError, match="unknown gpiozero pin factory 'wiringpi'"):
        open_buttons("gpio", pin_factory="wiringpi")
    with pytest.raises(ValueError, match="hold_time"):
        open_buttons("gpio", pin_factory=factory, hold_time=0)


def test_gpio_mock_factory_by_name() -> None:
    buttons = open_buttons("gpio", pin_factory="mock")
    buttons.close()
    buttons.close()


def test_callback_delivery_instead_of_queue() -> None:
    seen: list[ButtonEvent] = []
    buttons = open_buttons("queue", on_event=seen.append)
    buttons.tap("up")
    assert seen == [ev("up", P), ev("up", R)] and buttons.get(timeout=0) is None


def test_queue_backend_taps_holds_and_times() -> None:
    buttons = open_buttons("fake", hold_time=0.02)
    buttons.tap("down")
    buttons.hold("ok")
    assert buttons.drain() == [ev("down", P), ev("down", R), ev("ok", P), ev("ok", H),
                               ev("ok", R)]
    buttons.press("back")
    assert next_events(buttons, 2) == [ev("back", P), ev("back", H)]
    buttons.press("back")  # already down: nothing new
    buttons.release("back")
    buttons.push(ev("up", S))
    assert buttons.drain() == [ev("back", R), ev("up", S)]
    with pytest.raises(ValueError, match="unknown button"):
        buttons.tap("left")  # type: ignore[arg-type]
    buttons.close()
    buttons.tap("ok")
    assert buttons.drain() == []


def test_full_queue_drops_the_oldest(caplog: pytest.LogCaptureFixture) -> None:
    buttons = open_buttons("queue", queue_size=3)
    buttons.tap("up")
    buttons.tap("down")
    assert buttons.drain() == [ev("up", R), ev("down", P), ev("down", R)]
    assert "dropped 1" in caplog.text


def test_disabled_buttons_never_fire() -> None:
    buttons = open_buttons("disabled")
    assert buttons.get(timeout=0) is None and "disabled" in buttons.name


def test_split_keys() -> None:
    assert split_keys("\x1b[A\x1b[B\x1bOAq") == ["\x1b[A", "\x1b[B", "\x1bOA", "q"]
    assert split_keys("\x1b") == ["\x1b"]
    assert split_keys("\x1b[1;5A") == ["\x1b[1;5A"]
    assert split_keys("é\r") == ["é", "\r"]


@given(st.text(alphabet=st.sampled_from(["\x1b", "[", "O", "A", "B", "1", ";", "w", "\r", "é"]),
               max_size=30))
def test_split_keys_loses_nothing(text: str) -> None:
    keys = split_keys(text)
    assert "".join(keys) == text and all(keys)


def test_key_mapping() -> None:
    assert {KEYS[k] for k in ("\x1b[A", "w", "k")} == {"up"}
    assert {KEYS[k] for k in ("\x1b[B", "s", "j")} == {"down"}
    assert {KEYS[k] for k in ("\r", "\n", " ")} == {"ok"}
    assert {KEYS[k] for k in ("\x7f", "\x08", "\x1b")} == {"back"}
    assert key_events("s", False) == ([ev("down", P), ev("down", R)], False)
    assert key_events("x", True) == ([], False)  # another key disarms the hold
    assert key_events("h", True) == ([], False)
    assert key_events("\x7f", True) == ([ev("back", P), ev("back", H), ev("back", R)], False)


def test_keyboard_reads_a_terminal() -> None:
    master, slave = os.openpty()
    others: list[str] = []
    try:
        buttons = open_buttons("keyboard", stream=slave, on_other_key=others.append)
        os.write(master, b"w\x1b[Bh\rx")
        assert next_events(buttons, 7) == [ev("up", P), ev("up", R), ev("down", P),
                                           ev("down", R), ev("ok", P), ev("ok", H), ev("ok", R)]
        import termios

        cbreak = termios.tcgetattr(slave)
        assert not cbreak[3] & (termios.ICANON | termios.ECHO)
        buttons.close()
        buttons.close()
        assert others == ["x"]
        assert termios.tcgetattr(slave)[3] & termios.ICANON  # the terminal is given back
    finally:
        os.close(master)
        os.close(slave)


def test_keyboard_keeps_an_escape_sequence_whole_when_it_comes_in_two_reads() -> None:
    master, slave = os.openpty()
    try:
        buttons = open_buttons("keyboard", stream=slave)
        os.write(master, b"\x1b")  # the arrow's first byte alone, as a read woken mid-burst sees it
        time.sleep(ESCAPE_WAIT / 4)
        os.write(master, b"[A")
        assert next_events(buttons, 2) == [ev("up", P), ev("up", R)]
        os.write(master, b"\x1b")  # Esc alone: back, once nothing follows it
        assert next_events(buttons, 2) == [ev("back", P), ev("back", R)]
        assert buttons.get(timeout=2 * ESCAPE_WAIT) is None
        buttons.close()
    finally:
        os.close(master)
        os.close(slave)


def test_an_unfinished_escape_is_found_at_the_end_only() -> None:
    assert unfinished_escape("") == 0 and unfinished_escape("wq") == 2
    assert unfinished_escape("\x1b") == 0 and unfinished_escape("w\x1bO") == 1
    assert unfinished_escape("\x1b[A\x1b[1;5") == 3
    assert unfinished_escape("\x1b[A") == 3 and unfinished_escape("\x1bx") == 2
    assert unfinished_escape("\x1b[O") == 3  # O ends a CSI sequence: complete


def test_keyboard_needs_a_terminal() -> None:
    read, write = os.pipe()
    try:
        with pytest.raises(ButtonsError, match="not a terminal"):
            open_buttons("keyboard", stream=read)
    finally:
        os.close(read)
        os.close(write)
