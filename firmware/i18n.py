"""Languages of the lab kit: gettext catalogues, a translator per language, a tiny .po compiler.

Catalogues live in ``firmware/locale/<lang>/LC_MESSAGES/labkit.po`` (the source, edited by hand)
with the compiled ``labkit.mo`` committed beside it. Recompile after editing a ``.po`` file::

    python -m firmware.i18n compile      # rewrite every labkit.mo from its labkit.po
    python -m firmware.i18n check        # exit 1 if a .mo is stale or a message is untranslated

Message ids are dotted keys, not English sentences (``potion.R+``, ``menu.new_game``,
``error.camera_missing``); English is a catalogue like the others. Ids built from data use the
project notation after the dot: ``potion.<R+|R-|G+|G-|B+|B-|N>``, ``ingredient.<fern..feather>``,
``quality.<exact|sign|neutral|wrong>``, ``colour.<R|G|B>``, ``size.<large|small>``. Translations may
hold ``str.format`` fields (``{code}``); the caller passes the values.

>>> _ = translator("pl")
>>> _("potion.R-")
'Trucizna'
>>> translator("en")("no.such.id")
'no.such.id'
"""

from __future__ import annotations

import ast
import functools
import gettext
import struct
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

DOMAIN = "labkit"
LANGUAGES: tuple[str, ...] = ("en", "ru", "pl", "sk")
"""Language codes, in menu order: the languages of the rulebooks plus English."""

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "ru": "Русский",
    "pl": "Polski",
    "sk": "Slovenčina",
}
"""Each language's name in that language (shown untranslated in the language menu)."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"


class CatalogueError(ValueError):
    """A .po file that cannot be parsed; carries the file and line."""


def po_path(lang: str) -> Path:
    """Path of the editable catalogue of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    """Path of the compiled catalogue of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def _check_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")


@functools.lru_cache(maxsize=None)
def _translations(lang: str) -> gettext.GNUTranslations:
    with mo_path(lang).open("rb") as handle:
        return gettext.GNUTranslations(handle)


def translator(lang: str) -> Callable[[str], str]:
    """The gettext function of ``lang``: message id in, translated text out (the id if unknown)."""
    _check_language(lang)
    return _translations(lang).gettext


def parse_po(text: str, source: str = "<po>") -> dict[str, str]:
    """Messages of a .po file as ``{msgid: msgstr}`` (the header under ``""``); fuzzy entries kept.

    Supports what our catalogues use: comments, ``msgid``/``msgstr`` with continuation lines.
    """
    messages: dict[str, str] = {}
    key: str | None = None
    current: dict[str, list[str]] = {}

    def flush(lineno: int) -> None:
        if "msgid" in current:
            if "msgstr" not in current:
                raise CatalogueError(f"{source}:{lineno}: msgid without msgstr")
            msgid = "".join(current["msgid"])
            if msgid in messages:
                raise CatalogueError(f"{source}:{lineno}: duplicate msgid {msgid!r}")
            messages[msgid] = "".join(current["msgstr"])
        current.clear()

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgctxt") or line.startswith("msgid_plural"):
            raise CatalogueError(f"{source}:{lineno}: contexts and plurals are not supported")
        for keyword in ("msgid", "msgstr"):
            if line.startswith(keyword + " "):
                if keyword == "msgid":
                    flush(lineno)
                key = keyword
                current[key] = [_unquote(line[len(keyword):].strip(), source, lineno)]
                break
        else:
            if line.startswith('"') and key is not None:
                current[key].append(_unquote(line, source, lineno))
            else:
                raise CatalogueError(f"{source}:{lineno}: cannot parse {raw!r}")
    flush(lineno + 1 if text else 1)
    return messages


def _unquote(token: str, source: str, lineno: int) -> str:
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise CatalogueError(f"{source}:{lineno}: expected a quoted string, got {token!r}")
    try:
        value = ast.literal_eval(token)
    except (SyntaxError, ValueError) as exc:
        raise CatalogueError(f"{source}:{lineno}: bad string {token!r}: {exc}") from None
    if not isinstance(value, str):
        raise CatalogueError(f"{source}:{lineno}: bad string {token!r}")
    return value


def compile_mo(messages: dict[str, str]) -> bytes:
    """The GNU .mo file for ``messages`` (little-endian, no hash table), deterministic bytes."""
    entries = sorted((k.encode("utf-8"), v.encode("utf-8")) for k, v in messages.items() if v)
    count = len(entries)
    header_size = 7 * 4
    ids_table = header_size
    strs_table = ids_table + 8 * count
    data_start = strs_table + 8 * count
    data = bytearray()
    id_offsets: list[tuple[int, int]] = []
    for msgid, _msgstr in entries:
        id_offsets.append((len(msgid), data_start + len(data)))
        data += msgid + b"\0"
    str_offsets: list[tuple[int, int]] = []
    for _msgid, msgstr in entries:
        str_offsets.append((len(msgstr), data_start + len(data)))
        data += msgstr + b"\0"
    out = bytearray(struct.pack("<7I", 0x950412DE, 0, count, ids_table, strs_table, 0, data_start))
    for length, offset in id_offsets + str_offsets:
        out += struct.pack("<2I", length, offset)
    return bytes(out + data)


def load_po(lang: str) -> dict[str, str]:
    """Parsed catalogue of ``lang``."""
    _check_language(lang)
    path = po_path(lang)
    return parse_po(path.read_text(encoding="utf-8"), str(path))


def message_ids(lang: str = "en") -> frozenset[str]:
    """Every message id of the catalogue of ``lang`` (the header excluded)."""
    return frozenset(k for k in load_po(lang) if k)


def compile_all(languages: Iterable[str] = LANGUAGES) -> list[Path]:
    """Rewrite each language's .mo from its .po; returns the files written."""
    written = []
    for lang in languages:
        mo_path(lang).write_bytes(compile_mo(load_po(lang)))
        written.append(mo_path(lang))
    _translations.cache_clear()
    return written


def problems(languages: Iterable[str] = LANGUAGES) -> list[str]:
    """What ``check`` complains about: stale .mo files, missing or empty translations."""
    found: list[str] = []
    catalogues = {lang: load_po(lang) for lang in languages}
    all_ids = set().union(*(set(c) for c in catalogues.values())) - {""}
    for lang, catalogue in catalogues.items():
        for msgid in sorted(all_ids):
            if not catalogue.get(msgid):
                found.append(f"{lang}: no translation for {msgid!r}")
        if not mo_path(lang).exists() or mo_path(lang).read_bytes() != compile_mo(catalogue):
            found.append(f"{lang}: {mo_path(lang)} is stale; run python -m firmware.i18n compile")
    return found


def main(argv: list[str] | None = None) -> int:
    """Command line: ``compile`` or ``check``."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["compile"]:
        for path in compile_all():
            print(f"wrote {path}")
        return 0
    if args == ["check"]:
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    print("usage: python -m firmware.i18n compile|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
