"""Every text of every screen fits, in every language, at both sizes; the fitting helper."""

from __future__ import annotations

import pytest

from firmware.i18n import LANGUAGES
from firmware.screens import MessageView, Raw, TextDoesNotFit, render_view
from firmware.screens.gallery import exhaustive_views
from firmware.screens.draw import COLOUR, MONO
from firmware.screens.text import MIN_SIZE, fit, wrap, font


@pytest.mark.parametrize("size", [MONO, COLOUR], ids=["mono", "colour"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_fits(lang: str, size: tuple[int, int]) -> None:
    failures = []
    for view in exhaustive_views():
        try:
            render_view(view, size, lang)
        except TextDoesNotFit as exc:
            failures.append(f"{type(view).__name__}: {exc}")
    assert not failures, "\n".join(failures)


def test_text_does_not_fit_names_text_and_box() -> None:
    with pytest.raises(TextDoesNotFit) as info:
        fit("Supercalifragilisticexpialidocious", (0, 0, 40, 10), 12)
    assert isinstance(info.value, ValueError)
    assert info.value.text == "Supercalifragilisticexpialidocious"
    assert info.value.box == (0, 0, 40, 10)
    assert "Supercalifragilistic" in str(info.value) and "(0, 0, 40, 10)" in str(info.value)


def test_screen_raises_when_a_text_is_too_long() -> None:
    with pytest.raises(TextDoesNotFit, match="Lorem"):
        render_view(MessageView(Raw("Lorem ipsum " * 40)), MONO, "en")


def test_fit_shrinks_then_wraps() -> None:
    one = fit("Healing", (0, 0, 80, 30), 22, bold=True)
    assert len(one.lines) == 1 and one.size <= 22
    two = fit("Right sign", (0, 0, 50, 40), 22, bold=True, max_lines=2)
    assert two.lines == ("Right", "sign")
    assert fit("x", (0, 0, 100, 100), 30, min_size=MIN_SIZE).size == 30


def test_wrap_refuses_words_wider_than_the_box() -> None:
    assert wrap("a verylongword", font(10), 20) is None
    assert wrap("a b c", font(10), 200) == ["a b c"]


def test_fonts_are_loaded_once() -> None:
    assert font(10) is font(10)
    assert font(10, bold=True) is not font(10)


@pytest.mark.parametrize("text", ["Щётка", "Źdźbło łąki", "Ďateľ ôsmy ľúbi", "Ъъ Ёё Ůů Ĺĺ Ŕŕ"])
def test_font_has_the_letters(text: str) -> None:
    face = font(12)
    for char in text.replace(" ", ""):
        # a missing glyph renders as the same .notdef box; compare with a private-use char
        assert face.getmask(char).getbbox() != face.getmask("\ue000").getbbox() or \
            bytes(face.getmask(char)) != bytes(face.getmask("\ue000")), char


def test_the_face_is_dejavu_sans_at_its_regular_width_and_never_below_9_px() -> None:
    from firmware.screens import text

    assert (text.REGULAR, text.BOLD) == ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
    assert MIN_SIZE == 9  # i, j and r lose strokes below it (issue 17: "Naciśnj przycsk")
    assert font(12).getname() == ("DejaVu Sans", "Book")


@pytest.mark.parametrize("size", [MONO, COLOUR], ids=["mono", "colour"])
def test_a_list_row_is_never_shrunk_to_fit(size: tuple[int, int]) -> None:
    from firmware.screens import MenuView

    render_view(MenuView("menu.title", (Raw("Short"), Raw("Mushroom"))), size, "en")
    with pytest.raises(TextDoesNotFit):  # it would fit at 9 px: shorten the words instead
        render_view(MenuView("menu.title", (Raw("Short"), Raw("Restore the saved games"))), size, "en")
