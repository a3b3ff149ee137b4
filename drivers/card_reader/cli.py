"""``labkit vision``: enrol card faces and identify cards in images, as JSON lines.

    labkit vision enroll FACES_DIR REFS_FILE [--back IMAGE]   # FACES_DIR holds <name>.png for each face name
    labkit vision identify REFS_FILE IMAGE [IMAGE ...] [--tolerance T] [--empty-shelf IMAGE]

``identify`` prints one JSON object per image, one per line:
``{"image": "<path as given>", "status": "ok" | "unsure" | "empty", "cards": [{"ingredient": "toad",
"quad": [[x, y], [x, y], [x, y], [x, y]], "confidence": 0.97}]}``. ``enroll`` prints
``{"enrolled": [...ids], "references": "<REFS_FILE>"}``; with ``--back`` (a photo or scan of the
cards' back) the reader also says when a card lies face down, and ``"back": true`` is added.
``--empty-shelf`` (a frame of the same shelf without cards, from the same camera) is what the kit
captures before a game: the images are read against it (docs/card_reader.md, step 13). An
image that is missing or unreadable gets ``{"image": "<path>", "error": {...}}`` in its place,
the others are still read, and the command returns 2. Any other error prints
``{"error": {"kind": "...", "message": "..."}}`` on stdout and returns 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import NoReturn

import cv2

from .reader import CardReader
from .references import SHIPPED_FACE_NAMES, ReferenceFileError, enroll, load_references, read_faces
from .shelf import EmptyShelf


class CliError(Exception):
    """An error the CLI reports as ``{"error": {"kind": kind, "message": message}}``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError("usage", f"{self.prog}: {message}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="labkit vision", description="Enrol ingredient card faces; identify cards in images.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    e = sub.add_parser("enroll", help="build a reference file from FACES_DIR/<ingredient>.png")
    e.add_argument("faces_dir")
    e.add_argument("refs_file")
    e.add_argument("--back", help="a photo or scan of the cards' back: face-down cards are then seen")
    i = sub.add_parser("identify", help="read the cards in each image; one JSON line per image")
    i.add_argument("refs_file")
    i.add_argument("images", nargs="+")
    i.add_argument("--tolerance", type=float, default=0.5, help="0 strict .. 1 lenient (default 0.5)")
    i.add_argument("--empty-shelf", help="a frame of the shelf without cards: the images are read against it")
    return p


def _emit(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _enroll(faces_dir: str, refs_file: str, names: tuple[str, ...], back_file: str | None) -> None:
    if not os.path.isdir(faces_dir):
        raise CliError("missing_faces", f"faces folder {faces_dir!r} does not exist")
    try:
        faces = read_faces(faces_dir, names)
    except FileNotFoundError as exc:
        raise CliError("missing_face", str(exc)) from None
    except ValueError as exc:
        raise CliError("unreadable_image", str(exc)) from None
    back = None if back_file is None else _read_image(back_file)
    try:
        refs = enroll(faces, back)  # type: ignore[arg-type]
    except ValueError as exc:
        raise CliError("bad_face", str(exc)) from None
    try:
        refs.save(refs_file)
    except OSError as exc:
        raise CliError("cannot_write", f"cannot write reference file {refs_file!r}: {exc.strerror or exc}") from None
    _emit({"enrolled": list(refs.ingredients), "references": refs_file,
           **({"back": True} if refs.back is not None else {}),
           **({"warnings": list(refs.warnings)} if refs.warnings else {})})


def _identify(refs_file: str, images: list[str], tolerance: float, empty_shelf: str | None) -> None:
    try:
        refs = load_references(refs_file)
    except ReferenceFileError as exc:
        raise CliError("bad_references", str(exc)) from None
    try:
        reader = CardReader(refs, tolerance=tolerance)
    except (TypeError, ValueError) as exc:
        raise CliError("usage", str(exc)) from None
    if empty_shelf is not None:
        reader.empty_shelf = EmptyShelf(_read_image(empty_shelf))   # type: ignore[arg-type]
    failed = 0
    for path in images:
        try:
            frame = _read_image(path)
        except CliError as exc:  # this image's line says why; the others are still read
            _emit({"image": path, "error": {"kind": exc.kind, "message": exc.message}})
            failed += 1
            continue
        _emit({"image": path, **reader.identify(frame).to_json()})
    if failed:
        raise _ImagesFailed(failed)


class _ImagesFailed(Exception):
    """Some images could not be read; their lines are already printed."""


def _read_image(path: str) -> object:
    if not os.path.isfile(path):
        raise CliError("missing_image", f"image {path!r} does not exist")
    frame = cv2.imread(path, cv2.IMREAD_COLOR)
    if frame is None:
        raise CliError("unreadable_image", f"cannot read image {path!r} (not a picture OpenCV can decode)")
    return frame


def main(argv: list[str], face_names: tuple[str, ...] = SHIPPED_FACE_NAMES) -> int:
    """Run ``labkit vision`` with ``argv`` (what follows ``vision``); 0 on success, 2 on any error.

    ``enroll`` reads one face per name of ``face_names`` (the kit passes the engine's ingredient ids).
    """
    try:
        args = _parser().parse_args(argv)
        if args.command == "enroll":
            _enroll(args.faces_dir, args.refs_file, face_names, args.back)
        else:
            _identify(args.refs_file, args.images, args.tolerance, args.empty_shelf)
    except CliError as exc:
        _emit({"error": {"kind": exc.kind, "message": exc.message}})
        return 2
    except _ImagesFailed:
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
