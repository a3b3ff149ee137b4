"""Card reader: recognise the ingredient cards lying in the cauldron (issue 3).

Imports OpenCV and numpy only. Frames are BGR uint8 arrays (H x W x 3), as picamera2's "RGB888"
and OpenCV give them. Ingredient ids are plain strings, in the app's order: fern, claw, mushroom,
flower, root, scorpion, toad, feather.

    refs = enroll({"fern": fern_photo, ...})      # or placeholder_references()
    refs.save("cards.json"); refs = load_references("cards.json")
    reader = CardReader(refs, tolerance=0.5)
    reading = reader.identify(frame)              # FrameReading(status="ok", cards=[CardSighting(...)])
    event = ShelfWatcher(required_frames=3).update(reading)
"""

from .reader import CardReader, CardSighting, FrameReading
from .references import (
    INGREDIENTS,
    SCHEMA_VERSION,
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
    "INGREDIENTS", "SCHEMA_VERSION", "CardReader", "CardSighting", "FrameReading", "ReferenceFileError",
    "References", "ShelfEvent", "ShelfWatcher", "enroll", "load_placeholder_faces", "load_references",
    "placeholder_references", "read_faces",
]
