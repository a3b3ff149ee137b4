"""The ``Display``: one luma device behind a small typed wrapper, plus optional frame sinks."""

from __future__ import annotations

import logging
import threading
from typing import Any, Protocol

from PIL import Image

log = logging.getLogger(__name__)


class DisplayError(OSError):
    """The display failed: not found, no permission, or an I/O error on its bus. Names it."""


class FrameSink(Protocol):
    """Something that receives every frame shown, already in the display's mode and size."""

    def write(self, image: Image.Image) -> object: ...

    def close(self) -> None: ...


def to_device_mode(image: Image.Image, mode: str, threshold: int = 128) -> Image.Image:
    """``image`` in the device's ``mode``: ``1`` by a hard threshold (no dithering, text stays
    crisp), ``RGB`` or ``RGBA`` by conversion, others as PIL converts them."""
    if image.mode == mode:
        return image
    if mode == "1":
        return image.convert("L").point(lambda v: 255 if v >= threshold else 0, mode="1")
    return image.convert(mode)


class Display:
    """A luma device (or none, when disabled) with typed calls and errors as ``DisplayError``.

    ``show(image)`` converts the image to the device's mode and sends it, then hands the converted
    frame to each sink (the terminal renderer, the frames writer). ``contrast(level)`` takes 0-255;
    ``hide()``/``show_screen()`` switch the panel off and on. Thread-safe.
    """

    def __init__(self, device: Any, *, name: str, sinks: tuple[FrameSink, ...] = (),
                 size: tuple[int, int] | None = None, mode: str | None = None) -> None:
        if device is None and (size is None or mode is None):
            raise ValueError("a Display without a device needs its size and mode")
        self.device = device
        self.name = name
        self.sinks = tuple(sinks)
        self.size: tuple[int, int] = tuple(size or device.size)
        self.mode: str = mode or device.mode
        self.last_image: Image.Image | None = None
        self._closed = False
        self._lock = threading.Lock()

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    def _call(self, what: str, method: str, *args: Any) -> None:
        if self._closed:
            raise DisplayError(f"{self.name}: {what} on a closed display")
        if self.device is None:
            return
        try:
            getattr(self.device, method)(*args)
        except (OSError, RuntimeError) as exc:
            raise DisplayError(f"{self.name}: {what} failed: {exc}") from exc
        except Exception as exc:
            if type(exc).__module__.startswith("luma."):
                raise DisplayError(f"{self.name}: {what} failed: {exc}") from exc
            raise

    def show(self, image: Image.Image) -> None:
        """Display ``image`` (of the display's ``size``); ValueError for a wrong size."""
        if image.size != self.size:
            raise ValueError(f"{self.name}: image is {image.size[0]}x{image.size[1]}, "
                             f"the display {self.size[0]}x{self.size[1]}")
        frame = to_device_mode(image, self.mode)
        with self._lock:
            self.last_image = frame
            self._call("display", "display", frame)
            for sink in self.sinks:
                try:
                    sink.write(frame)
                except OSError as exc:
                    raise DisplayError(
                        f"{self.name}: writing the frame to {type(sink).__name__} failed: "
                        f"{exc}") from exc

    def contrast(self, level: int) -> None:
        """Set the panel's contrast (brightness on OLEDs), 0-255."""
        if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 255:
            raise ValueError(f"{self.name}: contrast {level!r} is not an integer 0-255")
        with self._lock:
            self._call("contrast", "contrast", level)

    def hide(self) -> None:
        """Switch the panel off (its memory is kept)."""
        with self._lock:
            self._call("hide", "hide")

    def show_screen(self) -> None:
        """Switch the panel back on."""
        with self._lock:
            self._call("show", "show")

    def close(self, keep_image: bool = False) -> None:
        """Release the device and close the sinks; safe to call twice.

        luma switches the panel off and clears it on release (and again at the process's exit)
        unless the device is told to ``persist``: ``keep_image`` leaves the last image lit, for an
        error that must stay readable after the kit stopped."""
        with self._lock:
            device, self.device = self.device, None
            sinks, self.sinks = self.sinks, ()
            self._closed = True
        if device is not None:
            if keep_image:
                device.persist = True
            try:
                device.cleanup()
            except Exception as exc:  # the bus is gone; nothing more to do
                log.warning("%s: cleanup failed: %s", self.name, exc)
        for sink in sinks:
            sink.close()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Display {self.name!r} {self.size[0]}x{self.size[1]} {self.mode}>"
