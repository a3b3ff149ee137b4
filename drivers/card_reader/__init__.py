"""Card reader: recognise the ingredient cards lying in the cauldron (issue 3).

Imports OpenCV and numpy only. Frames are BGR uint8 arrays (H x W x 3), as picamera2's "RGB888"
and OpenCV give them. Faces are named by plain strings the caller chooses (the kit: the engine's
ingredient ids); the reader knows no list of its own.

    refs = enroll({"fern": fern_photo, ...})      # or placeholder_references()
    refs.save("cards.json"); refs = load_references("cards.json")
    reader = CardReader(refs, tolerance=0.5)
    reading = reader.identify(frame)              # FrameReading(status="ok", cards=[CardSighting(...)])
    event = ShelfWatcher(required_frames=3).update(reading)
"""

from .reader import CardReader
from .reading import CardSighting, FrameReading
from .references import (
    SCHEMA_VERSION,
    SHIPPED_FACE_NAMES,
    ReferenceFileError,
    References,
    enroll,
    load_placeholder_faces,
    load_references,
    placeholder_references,
    read_faces,
)
from .watcher import ShelfEvent, ShelfWatcher

__all__ = [
    "SCHEMA_VERSION", "SHIPPED_FACE_NAMES", "CardReader", "CardSighting", "FrameReading", "ReferenceFileError",
    "References", "ShelfEvent", "ShelfWatcher", "enroll", "load_placeholder_faces", "load_references",
    "placeholder_references", "read_faces",
]
