"""Catalogues: compiled files up to date, every message translated, game words as the rulebooks."""

from __future__ import annotations

import gettext
import io
import string

import pytest

import firmware.screens.draw as draw_module
from firmware import i18n
from firmware.i18n import (
    LANGUAGES,
    CatalogueError,
    compile_mo,
    load_po,
    message_ids,
    mo_path,
    parse_po,
    translator,
)
from firmware.screens.gallery import exhaustive_views
from firmware.screens.draw import COLOUR, MONO, render_view


@pytest.mark.parametrize("lang", LANGUAGES)
def test_committed_mo_matches_po(lang: str) -> None:
    assert mo_path(lang).read_bytes() == compile_mo(load_po(lang)), \
        "stale .mo: run python -m firmware.i18n compile"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated(lang: str) -> None:
    catalogue = load_po(lang)
    missing = sorted(msgid for msgid in message_ids("en") if not catalogue.get(msgid))
    extra = sorted(set(catalogue) - message_ids("en") - {""})
    assert not missing, f"{lang}: untranslated {missing}"
    assert not extra, f"{lang}: ids not in the English catalogue {extra}"


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_translations_keep_the_placeholders(lang: str) -> None:
    english, other = load_po("en"), load_po(lang)
    for msgid in message_ids("en"):
        assert _fields(other[msgid]) == _fields(english[msgid]), (lang, msgid)


def test_check_command_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert i18n.main(["check"]) == 0
    assert i18n.problems() == []


def test_screens_use_only_catalogued_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    used: set[str] = set()

    def recording(lang: str):
        real = translator(lang)

        def gettext_(msgid: str) -> str:
            used.add(msgid)
            return real(msgid)
        return gettext_

    monkeypatch.setattr(draw_module, "translator", recording)
    for view in exhaustive_views():
        for size in (MONO, COLOUR):
            render_view(view, size, "en")
    unknown = used - message_ids("en")
    assert not unknown, f"ids used by screens but not in the catalogues: {sorted(unknown)}"
    unchecked = message_ids("en") - used
    assert not unchecked, (
        f"messages no view of gallery.exhaustive_views() shows, so the fit test cannot check "
        f"them: {sorted(unchecked)}")


@pytest.mark.parametrize(("lang", "words"), [
    ("en", {"potion.R+": "Healing", "potion.R-": "Poison", "potion.G+": "Speed",
            "potion.G-": "Paralysis", "potion.B+": "Wisdom", "potion.B-": "Insanity",
            "potion.N": "Neutral", "ingredient.claw": "Bird claw",
            "ingredient.feather": "Raven feather"}),
    ("ru", {"potion.R+": "Исцеление", "potion.R-": "Яд", "potion.G-": "Паралич",
            "potion.B-": "Безумие", "ingredient.fern": "Папоротник",
            "ingredient.claw": "Куриная лапа", "ingredient.root": "Корень мандрагоры"}),
    ("pl", {"potion.R-": "Trucizna", "ingredient.mushroom": "Muchomor",
            "ingredient.feather": "Krucze pióro", "class.moon": "Księżyc"}),
    ("sk", {"potion.R-": "Jed", "potion.G-": "Paralýza", "potion.B-": "Zabúdanie",
            "potion.N": "Bez efektu", "ingredient.claw": "Vtáčí pazúr",
            "ingredient.scorpion": "Škorpión", "quality.wrong": "Opačné znamienko"}),
])
def test_game_words_follow_the_rulebooks(lang: str, words: dict[str, str]) -> None:
    _ = translator(lang)
    for msgid, word in words.items():
        assert _(msgid) == word


def test_unknown_ids_and_languages() -> None:
    assert translator("sk")("no.such.id") == "no.such.id"
    with pytest.raises(ValueError, match="unknown language 'cz'"):
        translator("cz")


def test_compiled_catalogue_round_trips() -> None:
    po = '''# comment
msgid ""
msgstr "Content-Type: text/plain; charset=UTF-8\\n"

msgid "a.b"
msgstr "Zażółć "
"gęślą jaźń"

msgid "quote"
msgstr "say \\"hi\\"\\n"

msgid "empty"
msgstr ""
'''
    messages = parse_po(po)
    assert messages["a.b"] == "Zażółć gęślą jaźń"
    catalogue = gettext.GNUTranslations(io.BytesIO(compile_mo(messages)))
    assert catalogue.gettext("a.b") == "Zażółć gęślą jaźń"
    assert catalogue.gettext("quote") == 'say "hi"\n'
    assert catalogue.gettext("empty") == "empty"
    assert compile_mo(messages) == compile_mo(dict(reversed(list(messages.items()))))


@pytest.mark.parametrize("bad", ['msgid "x"\n', 'msgid "x"\nmsgstr "y"\nmsgid "x"\nmsgstr "z"\n',
                                 'msgid x\nmsgstr "y"\n', 'msgctxt "c"\n', 'garbage\n'])
def test_parse_errors_name_the_line(bad: str) -> None:
    with pytest.raises(CatalogueError, match=r"<po>:\d+"):
        parse_po(bad)
