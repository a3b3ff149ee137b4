"""Wires the daemon from the configuration: store, session, drivers, card reader, UI, console.

Every hardware family is opened through its driver's factory with the backend the configuration
names (``auto``: the real one on a Raspberry Pi, the simulated one with ``--simulate``). A part that
fails to open is replaced by its ``disabled`` backend and reported on the screen; the kit keeps going,
and a part that is only missing for now (an ``OSError``) is tried again with back-off
(``firmware.reopen``). Stopping is bounded (``SHUTDOWN_SECONDS``) below the unit's TimeoutStopSec=.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from collections.abc import Iterator
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from engine import INGREDIENT_IDS, Level, Rules
from firmware import systemd_notify
from firmware.config import Config
from firmware.console_worker import ConsoleWorker
from firmware.camera_worker import CameraWorker
from firmware.daemon import Daemon, EventSink
from firmware.reopen import PartReopener
from firmware.session import GameOptions, GameSession
from firmware.store import GameStore, StorageError, Store, memory_copy
from firmware.ui.base import ButtonPress, UiContext

if TYPE_CHECKING:
    from drivers.buttons import Buttons
    from drivers.buttons.base import ButtonEvent
    from drivers.camera import Camera
    from drivers.card_reader import CardReader, ShelfWatcher
    from drivers.display import Display
    from drivers.led import Led
    from firmware.simulator import SimulatedShelf

log = logging.getLogger(__name__)

# The unit's TimeoutStopSec= is 10 s: the parts get 6 s to close, leaving time for the store and the
# interpreter's exit before systemd would kill the daemon (tests/systemd/test_unit.py checks it).
SHUTDOWN_SECONDS = 6.0


class WatchdogFeeder:
    """Sends WATCHDOG=1 at half the interval systemd asked for (nothing when it asked for none)."""

    def __init__(self, interval: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.clock = clock
        self.last = -float("inf")

    def feed(self) -> None:
        if self.interval is None:
            return
        now = self.clock()
        if now - self.last >= self.interval / 2:
            systemd_notify.watchdog()
            self.last = now


@dataclass(frozen=True)
class RunOptions:
    """How ``labkit run`` was asked to run."""

    simulate: bool = False
    headless: bool = False
    console_given: bool = False
    frames_dir: Path | None = None
    script: Path | None = None
    state_dir_given: bool = False
    under_systemd: bool = False
    log_file: str | None = None
    """Where the log goes: a path, ``-`` for stderr, None for the default (see ``log_target``)."""

    @property
    def terminal_screen(self) -> bool:
        """Whether the screen is drawn in this terminal (the simulator, not headless)."""
        return self.simulate and not self.headless


def tell_systemd_ready() -> None:
    """READY=1 once the loop turns (nothing outside systemd)."""
    systemd_notify.ready("the kit is ready")


def log_target(options: RunOptions, state_dir: Path) -> Path | None:
    """The log file, or None for stderr: the terminal simulator logs to ``STATE_DIR/labkit.log``
    (a log line in the terminal would tear the picture), everything else to stderr (the journal
    under systemd), unless ``--log-file`` says otherwise."""
    if options.log_file == "-":
        return None
    if options.log_file:
        return Path(options.log_file).expanduser()
    return state_dir / "labkit.log" if options.terminal_screen else None


def setup_logging(level: str, under_systemd: bool, path: Path | None = None) -> None:
    """Log lines to stderr (the journal under systemd, which adds its own time stamps) or,
    with ``path``, appended to that file; Python's warnings go the same way."""
    form = "%(levelname)s %(name)s: %(message)s" if under_systemd else "%(asctime)s %(levelname)s %(name)s: %(message)s"
    if path is None:
        logging.basicConfig(level=level.upper(), format=form, stream=sys.stderr, force=True)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        logging.basicConfig(level=level.upper(), format=form, filename=str(path), force=True,
                            encoding="utf-8")
    logging.captureWarnings(True)


@contextlib.contextmanager
def stderr_into(path: Path | None) -> Iterator[None]:
    """With ``path``, file descriptor 2 writes to that file meanwhile: what a library or a dying
    thread prints on stderr lands in the log, not across the simulator's picture."""
    if path is None:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, "a", encoding="utf-8") as log_file:
        os.dup2(log_file.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def simulator_state_dir() -> Path:
    """Where the simulator keeps its game when no ``--state-dir`` is given."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "labkit-simulator"


def open_store(state_dir: Path) -> Store:
    """The SQLite store, or a memory store with a notice when the disk refuses."""
    try:
        return GameStore.open(state_dir)
    except StorageError as error:
        log.error("cannot open the state directory (%s); the game is kept in memory", error)
        return memory_copy(state_dir, notice=f"storage unavailable ({error}); the game is kept in memory")


def default_options(config: Config, store: Store) -> GameOptions:
    """New-game options: the persisted settings over the configuration's defaults."""
    level = store.settings.get("level", config.game.level)
    return GameOptions(rules=Rules(config.game.rules), level=Level(level), golem=config.game.golem)


@dataclass
class Parts:
    """The opened hardware: each a driver (a disabled one where the family is absent or failed)."""

    camera: Camera
    display: Display
    buttons: Buttons
    led: Led
    problems: list[tuple[str, str]]
    retry: dict[str, Callable[[], object]] = dataclasses.field(default_factory=dict)


def _choose(family: str, name: str, simulate: bool, on_pi: bool) -> str:
    from drivers.platform import choose_backend

    return choose_backend(family, name, simulate=simulate, on_pi=on_pi)  # aliases resolved there


PartT = TypeVar("PartT")


def open_parts(config: Config, options: RunOptions, on_other_key: Callable[[str], None],
               on_button: Callable[[ButtonEvent], None]) -> Parts:
    """Open camera, display, buttons and LED; a part that fails becomes disabled, with a problem noted.

    Each driver family chooses its backend and takes from its settings what that backend uses.
    """
    from drivers.buttons import ButtonSettings, open_buttons, open_configured_buttons
    from drivers.camera import CameraSettings, open_camera, open_configured_camera
    from drivers.display import open_display
    from drivers.led import open_configured_led, open_led
    from drivers.platform import is_raspberry_pi

    on_pi = is_raspberry_pi()
    problems: list[tuple[str, str]] = []
    retry: dict[str, Callable[[], object]] = {}

    def attempt(family: str, opener: Callable[[], PartT], fallback: Callable[[], PartT]) -> PartT:
        try:
            return opener()
        except OSError as error:  # missing for now (a device node not there yet): tried again
            log.error("%s unavailable: %s; trying again in the background", family, error)
            problems.append((family, str(error)))
            if family != "camera":  # the camera worker retries its own camera
                retry[family] = opener
        except ValueError as error:  # the configuration: waiting will not change it
            log.error("%s unavailable: %s", family, error)
            problems.append((family, str(error)))
        except Exception as error:  # whatever a driver's library raised: never a crash loop
            log.exception("%s unavailable: %s", family, error)
            problems.append((family, f"{type(error).__name__}: {error}"))
        return fallback()

    camera_settings = CameraSettings(size=(config.camera.width, config.camera.height),
                                     controls=config.camera.controls, device=config.camera.device,
                                     replay_dir=config.camera.replay_dir)

    def camera() -> Camera:
        name = _choose("camera", config.camera.backend, options.simulate, on_pi)
        return open_configured_camera(name, camera_settings)

    def display() -> Display:
        name = _choose("display", "auto", options.simulate, on_pi)
        sinks = []
        if options.terminal_screen:
            from drivers.display import TerminalWriter
            from firmware.simulator import farewell, terminal_notes

            sinks.append(TerminalWriter(sys.stdout, notes=terminal_notes(options.log_file),
                                        farewell=farewell(options.log_file)))
        return open_display(name, luma_args=config.display.luma, sinks=sinks,
                            frames_dir=options.frames_dir)

    def no_display() -> Display:
        try:
            return open_display("disabled", luma_args=config.display.luma)
        except Exception:  # luma refuses its options, or cannot even parse them: the default size
            from drivers.display import Display

            return Display(None, name="display (disabled)", size=(128, 64), mode="1")

    button_settings = ButtonSettings(
        on_event=on_button,
        pins={"up": config.buttons.up, "down": config.buttons.down, "ok": config.buttons.ok,
              "back": config.buttons.back},
        pin_factory=config.buttons.pin_factory,
        bounce_time=config.buttons.bounce_seconds,
        hold_time=config.buttons.hold_seconds,
        on_other_key=on_other_key,
    )

    def buttons() -> Buttons:
        name = _choose("buttons", config.buttons.backend, options.simulate, on_pi)
        if name == "keyboard" and options.headless:
            name = "queue"
        return open_configured_buttons(name, button_settings)

    def led() -> Led:
        return open_configured_led(_choose("led", config.led.backend, options.simulate, on_pi),
                                   config.led.pin)

    return Parts(
        camera=attempt("camera", camera, lambda: open_camera("disabled")),
        display=attempt("display", display, no_display),
        buttons=attempt("buttons", buttons, lambda: open_buttons("disabled")),
        led=attempt("led", led, lambda: open_led("disabled")),
        problems=problems,
        retry=retry,
    )


ENROLLED_REFERENCES = "cards.json"


def references_path(config: Config, state_dir: Path) -> Path:
    """Where enrolled card references live: the configured file, else the state directory."""
    return config.reader.references or state_dir / ENROLLED_REFERENCES


def face_names_problem(names: tuple[str, ...]) -> str | None:
    """What is wrong with the face names of a reference file, for the game's ingredients (or None).

    >>> face_names_problem(("fern", "toad"))
    'no face for claw, mushroom, flower, root, scorpion, feather'
    """
    unknown = [name for name in names if name not in INGREDIENT_IDS]
    missing = [name for name in INGREDIENT_IDS if name not in names]
    if unknown:
        return "faces that are not ingredients: " + ", ".join(unknown)
    if missing:
        return "no face for " + ", ".join(missing)
    return None


def open_reader(config: Config, state_dir: Path) -> tuple[CardReader, ShelfWatcher, str | None]:
    """The card reader, with the empty shelf saved in ``state_dir`` if any, and its stability watcher;
    a bad reference file falls back to the placeholders."""
    from drivers.card_reader import CardReader, ReferenceFileError, ShelfWatcher, load_references, placeholder_references
    from drivers.card_reader.shelf import ShelfKeeper
    from firmware.shelf_file import SHELF_FILE, load_shelf

    problem = None
    references = None
    path = references_path(config, state_dir)
    if config.reader.references is not None or path.exists():
        try:
            references = load_references(path)
            names_problem = face_names_problem(references.ingredients)
            if names_problem:
                raise ReferenceFileError(path, names_problem)
        except ReferenceFileError as error:
            log.error("card references unusable (%s); using the placeholder faces", error)
            problem = f"card references unusable: {error.problem}"  # the journal has the path
            references = None
        except OSError as error:
            log.error("card references unusable (%s); using the placeholder faces", error)
            problem = f"card references unusable: {error.strerror or error}"
    if references is None:
        references = placeholder_references(INGREDIENT_IDS)
    reader = CardReader(references, tolerance=config.reader.tolerance)
    if config.reader.shelf_frames:
        reader.shelf_keeper = ShelfKeeper(config.reader.shelf_frames)
    reader.empty_shelf = load_shelf(state_dir / SHELF_FILE)
    return reader, ShelfWatcher(required_frames=config.reader.stable_frames), problem


class Calibration:
    """Card enrolment for the settings menu: capture one card's face, then enrol all eight."""

    def __init__(self, worker: CameraWorker, path: Path) -> None:
        self.worker = worker
        self.path = path

    def capture_face(self) -> object | None:
        """The upright face of the one card on the shelf, or None when there is not exactly one.

        The camera worker reads the frame (it owns the reader); this waits for that one reading,
        which the user asked for by pressing ok on the calibration screen."""
        from drivers.card_reader.references import FACE_H, FACE_W, canonical_card

        reading = self.worker.wait_reading()
        if reading.frame is None or reading.shelf.status == "empty" or len(reading.cards) != 1:
            return None
        return canonical_card(reading.frame, reading.cards[0].quad, (FACE_W, FACE_H))

    def capture_empty_shelf(self) -> str:
        """Capture the shelf the user says is empty, to tell cards from it (``reader.empty_shelf``):
        "captured", "cards" when a card is read on it (none is captured), or "no_camera"."""
        reading = self.worker.wait_reading()
        if reading.frame is None:
            return "no_camera"
        if any(card.ingredient is not None or card.face_down for card in reading.cards):
            return "cards"
        self.worker.use_empty_shelf(reading.frame)
        log.info("empty shelf captured")
        return "captured"

    def back_problem(self, back: object, faces: dict[str, object]) -> str | None:
        """Why a captured back would not tell face-down cards: "blank" (it shows nothing: a patch
        of shelf was captured) or "face_up" (it is one of the captured faces), or None."""
        from drivers.card_reader.enrolment import face_like, is_blank

        if is_blank(back):  # type: ignore[arg-type]
            return "blank"
        if face_like(back, faces) is not None:  # type: ignore[arg-type]
            return "face_up"
        return None

    def enroll_faces(self, faces: dict[str, object], back: object | None = None) -> None:
        """Build references from the captured faces (and the back, if captured: the reader then
        sees face-down cards), save them, and read with them from now on."""
        from drivers.card_reader import CardReader, enroll

        references = enroll(faces, back)  # type: ignore[arg-type]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        references.save(self.path)
        os.chmod(self.path, 0o600)  # the deck's faces are the owner's, like the rest of the state
        self.worker.use_reader(CardReader(references))  # at the tolerance the worker reads with
        log.info("enrolled %d card faces%s", len(faces), " and the back" if back is not None else "")


def run_daemon(config: Config, options: RunOptions) -> int:
    """Run the kit until SIGTERM/SIGINT (or the end of the script); returns the exit status."""
    from drivers.platform import is_raspberry_pi

    not_a_pi = not options.simulate and not is_raspberry_pi()
    if not_a_pi:
        options = dataclasses.replace(options, simulate=True)
    state_dir = config.storage.state_dir
    if options.simulate and not options.state_dir_given:
        state_dir = simulator_state_dir()
    log_path = log_target(options, state_dir)
    options = dataclasses.replace(options, log_file=str(log_path) if log_path else "-")
    setup_logging(config.log.level, options.under_systemd, log_path)
    if not_a_pi:
        log.warning("not a Raspberry Pi: running the simulator (use --simulate to say so)")
    with stderr_into(log_path if options.terminal_screen else None):
        status = _run_kit(config, options, state_dir)
    exit_past_stuck_threads(status)
    return status


EXIT_GRACE_SECONDS = 1.0  # what is left of the unit's TimeoutStopSec= after SHUTDOWN_SECONDS, halved


def exit_past_stuck_threads(status: int, grace: float = EXIT_GRACE_SECONDS,
                            exit: Callable[[int], object] = os._exit) -> None:
    """Exit now with ``status`` if a thread the interpreter would wait for at exit is stuck.

    Python joins every non-daemon thread at exit, among them concurrent.futures' workers: a camera
    call stalled in its driver (``CaptureTimeout`` abandons it) would hold the process until systemd
    kills it. The kit has stopped and closed its store by now; nothing is lost by leaving."""
    deadline = time.monotonic() + grace
    stuck = []
    for thread in threading.enumerate():
        if thread is threading.current_thread() or thread.daemon:
            continue
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            stuck.append(thread.name)
    if stuck:
        log.warning("threads stuck in a driver (%s); exiting without waiting for them", ", ".join(stuck))
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        exit(status)


def _run_kit(config: Config, options: RunOptions, state_dir: Path) -> int:
    kit = build_kit(config, options, state_dir)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    kit.start()
    fault: str | None = None
    try:
        if options.script is not None:
            from firmware.script import ScriptError, play_script

            on_step = None
            if options.frames_dir is not None:
                kit.daemon.drain()  # the first screen, drawn before the script's first action
                from firmware.demo_gif import ScriptTrace

                on_step = ScriptTrace(options.frames_dir)
            try:
                play_script(kit, options.script.read_text(encoding="utf-8"), stop, on_step)
            except (ScriptError, OSError) as error:
                log.error("script %s: %s", options.script, error)
                fault = f"Script error: {error}"
                return 2
        else:
            kit.daemon.run(stop)
    except Exception as error:
        fault = f"Kit stopped: {type(error).__name__}: {error}"
        raise
    finally:
        kit.stop(fault=fault)
    return 0


JOURNAL_HINT = "see journalctl -u labkit"


def draw_message(display: Display, *texts: str) -> None:
    """Show the first of ``texts`` that fits the panel (the last one should be short)."""
    from firmware.screens.draw import render_view
    from firmware.screens.text import Raw
    from firmware.screens.views import MessageView

    for text in texts:
        try:
            image = render_view(MessageView(text=Raw(text)), display.size, "en")
        except ValueError:  # does not fit: try the shorter one
            continue
        display.show(image)
        return
    raise ValueError(f"none of the messages fits the {display.size[0]}x{display.size[1]} panel")


def leave_message_on_panel(text: str, luma_args: Sequence[str] | None = None) -> bool:
    """Show ``text`` on the real panel and leave it there when the process exits (luma's ``persist``).

    For an error before the kit could start (a configuration it refuses): without it the panel stays
    dark, or goes dark at exit. Only on a Raspberry Pi; returns whether the panel took the message.
    """
    from drivers import display as displays
    from drivers import platform

    if not platform.is_raspberry_pi():
        return False
    try:
        display = displays.open_display("luma", luma_args=luma_args or displays.DEFAULT_LUMA_ARGS)
    except Exception as error:  # no panel, or its options are what is wrong: the journal has it
        log.warning("cannot show the error on the screen: %s", error)
        return False
    try:
        draw_message(display, text, f"{text.partition(':')[0]}: {JOURNAL_HINT}")
    except Exception as error:
        log.warning("cannot show the error on the screen: %s", error)
        return False
    finally:
        display.close(keep_image=True)
    return True


@dataclass
class Kit:
    """A built daemon with the threads and parts around it."""

    daemon: Daemon
    session: GameSession
    parts: Parts
    camera_worker: CameraWorker
    console_worker: ConsoleWorker | None
    shelf: SimulatedShelf | None
    context: UiContext
    reopener: PartReopener | None = None

    def start(self) -> None:
        self.camera_worker.start()
        if self.console_worker is not None:
            self.console_worker.start()
        if self.reopener is not None:
            self.reopener.start()

    def stop(self, fault: str | None = None, budget: float = SHUTDOWN_SECONDS) -> None:
        """Stop the threads and close the parts within ``budget`` seconds, then close the store.

        A part that hangs while closing (a stalled camera, a console port nobody reads) is left to
        the process's exit. With ``fault``, the panel keeps that message after the exit."""
        closer = threading.Thread(target=self._close_parts, args=(fault,), name="shutdown", daemon=True)
        closer.start()
        closer.join(budget)
        if closer.is_alive():
            log.error("the parts did not close within %g s; leaving them to the exit", budget)
        self.session.store.close()

    def _close_parts(self, fault: str | None) -> None:
        # quick parts first (the loop has stopped: nothing else uses them), the ones that can
        # take seconds (a console write, a camera stopping) last; one failing stops none of the rest
        steps: list[tuple[str, Callable[[], object]]] = []
        if self.reopener is not None:
            steps.append(("the reopener", self.reopener.stop))
        if fault is not None:
            steps.append(("the fault screen", lambda: self._show_fault(fault)))
            steps.append(("the display", lambda: self.daemon.display.close(keep_image=True)))
        else:
            steps.append(("the display", self.daemon.display.close))
        steps += [("the buttons", self.parts.buttons.close), ("the LED", self.parts.led.close)]
        if self.console_worker is not None:
            steps.append(("the console", self.console_worker.stop))
        steps.append(("the camera", self.camera_worker.stop))
        for what, step in steps:
            try:
                step()
            except Exception as error:  # closing: nothing more to do about it than say so
                log.warning("closing %s failed: %s", what, error)

    def _show_fault(self, text: str) -> None:
        try:
            draw_message(self.daemon.display, text, f"{text.partition(':')[0]}: {JOURNAL_HINT}")
        except Exception as error:  # the panel is what failed: the journal has the message
            log.warning("cannot leave the error on the screen: %s", error)


def build_kit(config: Config, options: RunOptions, state_dir: Path) -> Kit:
    """Open everything and wire the daemon (not yet started).

    The daemon's event sink exists first: every part and thread built after it posts to it."""
    from firmware.console import ConsoleProtocol
    from firmware.screens.draw import render_view
    from firmware.shelf_file import SHELF_FILE, ShelfSaver
    from firmware.simulator import SimulatedShelf
    from firmware.ui.app import LabUi

    store = open_store(state_dir)
    session = GameSession(store)
    session.resume()
    sink = EventSink()
    built = threading.Event()
    shelves: list[SimulatedShelf] = []  # the simulator's shelf, once its camera is open

    def on_button(event: ButtonEvent) -> None:
        if not built.is_set():  # a button already down while the kit starts: its "stuck" event follows
            log.info("a %s %s before the kit was ready is ignored", event.button, event.kind)
            return
        sink.post_button(ButtonPress(event.button, event.kind))

    def on_other_key(key: str) -> None:
        for shelf in shelves:
            shelf.on_key(key)

    parts = open_parts(config, options, on_other_key, on_button)
    reader, watcher, reader_problem = open_reader(config, state_dir)

    def press_both(down: bool) -> None:
        for button in ("ok", "back"):
            sink.post_button(ButtonPress(button, "press" if down else "release"))

    shelf = SimulatedShelf(parts.camera, press_both) if options.simulate and hasattr(parts.camera, "show") else None
    shelves.extend([shelf] if shelf is not None else [])

    context = UiContext(
        session=session,
        default_options=default_options(config, store),
        language=store.settings.get("language", config.game.language),
        tolerance=float(store.settings.get("tolerance", config.reader.tolerance)),
        brightness=int(store.settings.get("brightness", config.display.brightness)),
        idle_dim_seconds=config.display.idle_dim_seconds,
        display_size=parts.display.size,
    )
    reader.tolerance = context.tolerance

    camera_worker = CameraWorker(parts.camera, reader, watcher, sink.post_shelf, sink.post_fault,
                                 shelf_saver=ShelfSaver(state_dir / SHELF_FILE, saved=reader.empty_shelf))
    calibration = Calibration(camera_worker, references_path(config, state_dir))
    context.capture_face = calibration.capture_face
    context.enroll_faces = calibration.enroll_faces
    context.back_problem = calibration.back_problem
    context.capture_empty_shelf = calibration.capture_empty_shelf
    context.set_tolerance = camera_worker.set_tolerance
    protocol = ConsoleProtocol(session, camera_worker.read_now, lambda: context.default_options,
                               pin=config.console.pin)
    console_worker = None
    if config.console.enabled and (options.console_given or not options.simulate):
        from drivers.console import LineTooLong, PartialLineDropped, open_console

        console_worker = ConsoleWorker(
            lambda: open_console(config.console.url, config.console.baudrate),
            sink.ask_console,
            sink.post_fault,
            (LineTooLong, PartialLineDropped),
        )
        context.console_state = protocol.gate.state
        context.unlock_console = protocol.gate.unlock_on_kit
        context.lock_console = protocol.gate.lock
        protocol.send_notice = console_worker.notify
    daemon = Daemon(
        ui_factory=lambda: LabUi(context),
        protocol=protocol,
        display=parts.display,
        render=render_view,
        led=parts.led,
        led_level=config.led.level,
        on_ready=tell_systemd_ready,
        on_alive=WatchdogFeeder(systemd_notify.watchdog_interval()).feed,
        on_console_notice=lambda notice: console_worker.notify(notice) if console_worker else None,
        sink=sink,
        camera=camera_worker,
    )
    built.set()

    def on_new_part(family: str, part: object) -> object:
        """On the loop's thread: the part the reopener opened replaces the disabled one."""
        replaced = getattr(parts, family)
        setattr(parts, family, part)
        return replaced

    daemon.on_new_part = on_new_part
    reopener = PartReopener(parts.retry, sink.post_part) if parts.retry else None
    for part, problem in parts.problems + ([("reader", reader_problem)] if reader_problem else []):
        daemon.post_fault(part, problem)
    return Kit(daemon, session, parts, camera_worker, console_worker, shelf, context, reopener)

