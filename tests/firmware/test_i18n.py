"""Catalogues: compiled files up to date, every message translated, game words as the rulebooks."""

from __future__ import annotations

import ast
import gettext
import io
import string
from pathlib import Path

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


# The words of the rulebooks in seeds/ (000 ru, 003 sk, 004 pl), with the line that has them.
@pytest.mark.parametrize(("lang", "words"), [
    ("en", {"potion.R+": "Healing", "potion.R-": "Poison", "potion.G+": "Speed",
            "potion.G-": "Paralysis", "potion.B+": "Wisdom", "potion.B-": "Insanity",
            "potion.N": "Neutral", "ingredient.claw": "Bird claw",
            "ingredient.feather": "Raven feather",
            "confirm.reveal": "Show every answer to the table? This ends the game."}),
    ("ru", {"potion.R+": "Исцеление", "potion.R-": "Яд", "potion.G-": "Паралич",
            "potion.B-": "Безумие", "ingredient.fern": "Папоротник",
            "ingredient.claw": "Куриная лапа", "ingredient.root": "Корень мандрагоры",
            "potion.G+": "Ускорение",                      # l.591 "Зелье ускорения"
            "menu.reveal": "Посмотреть ответы",            # l.1201
            "hold.title": "Посмотреть ответы",
            "code.title": "Код игры",                      # l.47 "Введите код игры"
            "entry.title": "Введите код игры",
            "size.small": "маленький",                     # l.73 "в маленьком круге"
            "idle.hint": "Нажмите любую кнопку"}),
    ("pl", {"potion.R-": "Trucizna", "ingredient.mushroom": "Muchomor",
            "ingredient.feather": "Krucze pióro",
            "class.sun": "Słoneczny", "class.moon": "Księżycowy",  # l.55
            "menu.golem": "Badania nad golemem",           # l.542
            "menu.golem_test": "Test golema",              # l.544
            "menu.golem_animate": "Ożywienie golema",      # l.793
            "menu.library": "Wizyta w bibliotece",         # l.55
            "golem.chest": "Klatka piersiowa",             # l.558
            "quality.sign": "Dobry symbol", "quality.wrong": "Zły symbol",  # l.256, l.763
            "settings.calibrate": "Zapamiętaj karty"}),
    ("sk", {"potion.R-": "Jed", "potion.G-": "Paralýza", "potion.B-": "Zabúdanie",
            "potion.N": "Bez efektu", "ingredient.claw": "Vtáčí pazúr",
            "ingredient.scorpion": "Škorpión", "quality.wrong": "Opačné znamienko",
            "menu.reveal": "Zobraziť riešenia",            # l.368
            "choose.colour": "Farba aspektu",
            "info.title": "Upozornenie"}),
])
def test_game_words_follow_the_rulebooks(lang: str, words: dict[str, str]) -> None:
    _ = translator(lang)
    for msgid, word in words.items():
        assert _(msgid) == word


@pytest.mark.parametrize(("lang", "msgid", "colour", "potion", "text"), [
    ("en", "debunk.aspect", "colour.B", "", "Blue −"),           # the sign, not "Blue aspect"
    ("ru", "debunk.aspect", "colour.B", "", "Синий элемент −"),    # 000 l.930 "синего элемента"
    ("ru", "debunk.makes", "", "potion.R+", "Получится Исцеление?"),  # 000 l.995 "получается"
    ("pl", "debunk.makes", "", "potion.R+", "Dają: Leczenie?"),  # 004 l.284 "dają razem"
    ("sk", "debunk.aspect", "colour.R", "", "Farba: Červená −"),   # 003 l.41: látka = alchemical
    ("sk", "debunk.makes", "", "potion.R-", "Vznikne Jed?"),
])
def test_debunk_sentences_read_as_the_rulebooks(lang: str, msgid: str, colour: str,
                                                potion: str, text: str) -> None:
    _ = translator(lang)
    assert _(msgid).format(colour=_(colour) if colour else "", sign="−",
                           potion=_(potion) if potion else "") == text


@pytest.mark.parametrize(("lang", "word"), [("sk", "Látk"), ("sk", "látk"), ("pl", "Pierś"),
                                            ("pl", "pierś"), ("ru", "ОЗУ"), ("ru", "партии")])
def test_words_the_rulebooks_do_not_use_for_these_things(lang: str, word: str) -> None:
    # sk "látka" is the alchemical (003 l.41), not an aspect; pl "pierś" reads as breast
    # (004 l.558 says "klatka piersiowa"); ru "ОЗУ" is jargon; 000 l.47 says "код игры".
    offenders = {k: v for k, v in load_po(lang).items() if k and word in v}
    assert not offenders, offenders


def _firmware_ids_in_source() -> tuple[set[str], set[str]]:
    """String literals of firmware/ (the gallery of samples excepted) and f-string id prefixes."""
    literals: set[str] = set()
    prefixes: set[str] = set()
    root = Path(i18n.__file__).resolve().parent
    for path in root.rglob("*.py"):
        if path.name == "gallery.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and \
                    isinstance(node.values[0], ast.Constant) and \
                    str(node.values[0].value).endswith("."):
                prefixes.add(str(node.values[0].value))
    return literals, prefixes


def test_every_catalogued_message_is_used_by_the_firmware() -> None:
    literals, prefixes = _firmware_ids_in_source()
    unused = sorted(msgid for msgid in message_ids("en") if msgid not in literals
                    and not any(msgid.startswith(prefix) for prefix in prefixes))
    assert not unused, f"catalogue entries no firmware code shows: {unused}"


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
