"""View models and the dispatcher: validation, purity, sizes, privacy, idle shift."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from PIL import ImageChops

import firmware.screens as screens
from firmware.screens import (
    COLOUR,
    MONO,
    ChoiceView,
    CodeEntryView,
    GameCodeView,
    HistoryEntry,
    IdleView,
    MenuView,
    PotionView,
    SaleView,
    render,
    render_view,
)
from firmware.screens.gallery import SAMPLES
from firmware.screens.draw import history_line
from firmware.screens.views import (
    DebunkYesNoView,
    GolemAnimationView,
    GolemTestView,
    IngredientPickerView,
    LibraryAnswerView,
    LibraryOfferView,
    ScanConfirmView,
)
from firmware.screens.text import Msg, Raw, msg, resolve


def test_modes_and_sizes() -> None:
    assert render_view(PotionView("R+")).mode == "1"
    assert render_view(PotionView("R+")).size == (128, 64)
    assert render_view(PotionView("R+"), COLOUR).mode == "RGB"
    assert render_view(PotionView("R+"), COLOUR).size == (128, 128)
    with pytest.raises(ValueError, match="unsupported display size"):
        render_view(PotionView("R+"), (96, 96))
    with pytest.raises(ValueError, match="unknown language"):
        render_view(PotionView("R+"), MONO, "de")


def test_dispatcher_refuses_unknown_views() -> None:
    with pytest.raises(TypeError, match="no screen for str"):
        render_view("menu")


def test_render_is_pure() -> None:
    for view in list(SAMPLES.values())[:10]:
        assert render(view, MONO, "ru").tobytes() == render(view, MONO, "ru").tobytes()


@pytest.mark.parametrize("bad", [
    lambda: PotionView("R"),
    lambda: SaleView("great"),
    lambda: MenuView("menu.title", ("menu.sell",), selected=1),
    lambda: GameCodeView("abcd"),
    lambda: GameCodeView("ABCDEF"),
    lambda: CodeEntryView("ABCD", "E", length=4),
    lambda: ChoiceView("potion", options=("X+",)),
    lambda: HistoryEntry("debunk_sign", ingredient="dragon", colour="R", sign="+"),
    lambda: IdleView(dx=20),
])
def test_views_validate(bad) -> None:
    with pytest.raises(ValueError):
        bad()


def test_views_are_frozen() -> None:
    view = PotionView("R+")
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.potion = "R-"  # type: ignore[misc]


RESULT_VIEWS = [screens.PotionView, screens.SaleView, screens.DebunkSignView,
                screens.DebunkYesNoView, screens.ExhibitionView, screens.GolemTestView,
                screens.GolemAnimationView, screens.LibraryAnswerView]


@pytest.mark.parametrize("cls", RESULT_VIEWS, ids=lambda c: c.__name__)
def test_result_views_cannot_name_ingredients(cls) -> None:
    names = {field.name for field in dataclasses.fields(cls)}
    assert not names & {"ingredient", "ingredients", "pair", "options", "chosen"}


def test_history_never_names_experiment_ingredients() -> None:
    fields = {field.name for field in dataclasses.fields(HistoryEntry)}
    assert "ingredients" not in fields and "pair" not in fields
    text = resolve(history_line(HistoryEntry("potion", potion="R+")), lambda s: s)
    assert text == "history.potion"
    english = __import__("firmware.i18n", fromlist=["translator"]).translator("en")
    assert resolve(history_line(HistoryEntry("potion", potion="R+")), english) == "Potion: Healing"
    # as the table says them: the sign with its colour, the promised potion, which golem question
    assert resolve(history_line(HistoryEntry("golem_test", chest=True, ears=True)),
                   english) == "Golem test: chest, ears"
    assert resolve(history_line(HistoryEntry("golem_animate", success=False)),
                   english) == "Golem animation: It stays clay"
    assert resolve(history_line(HistoryEntry("debunk_sign", ingredient="root", colour="R",
                                             sign="+")), english) == "Debunk: Mandrake root R+"
    assert resolve(history_line(HistoryEntry("exhibition", potion="R+", success=True)),
                   english) == "Exhibition Healing: Success"


def test_text_references() -> None:
    english = __import__("firmware.i18n", fromlist=["translator"]).translator("en")
    assert resolve("potion.G-", english) == "Paralysis"
    assert resolve(Raw("potion.G-"), english) == "potion.G-"
    assert resolve(msg("calib.lay", ingredient=Msg("ingredient.toad")), english) == \
        "Lay the card: Toad"
    with pytest.raises(TypeError):
        resolve(3, english)


def test_idle_shifts_content() -> None:
    still = render_view(IdleView(0, 0, "DEMO"), MONO)
    moved = render_view(IdleView(2, 1, "DEMO"), MONO)
    assert still.tobytes() != moved.tobytes()
    assert ImageChops.offset(still, 2, 1).crop((8, 8, 120, 56)).tobytes() == \
        moved.crop((8, 8, 120, 56)).tobytes()


def test_idle_is_dim_on_colour() -> None:
    image = render_view(IdleView(0, 0, "DEMO"), COLOUR)
    assert max(high for _low, high in image.getextrema()) < 128


def test_the_words_views_are_checked_against_are_the_engines_own() -> None:
    from engine import COLOUR_NAMES, INGREDIENT_IDS, POTION_WORDS
    from firmware.screens import views

    assert views.INGREDIENTS is INGREDIENT_IDS and views.POTIONS is POTION_WORDS
    assert views.COLOURS is COLOUR_NAMES


def test_no_screen_module_spells_out_the_ingredients() -> None:
    root = Path(screens.__file__).parent
    for path in root.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert '"fern", "claw"' not in source and "'fern', 'claw'" not in source, path.name


@pytest.mark.parametrize("language", ["en", "ru", "pl", "sk"])
@pytest.mark.parametrize("size", [MONO, COLOUR])
def test_history_entries_follow_each_other_without_a_blank_gap(language: str, size: tuple[int, int]) -> None:
    from firmware.screens.gallery import HISTORY
    from firmware.screens.views import HistoryView

    image = np.array(render_view(HistoryView(HISTORY, 0), size, language).convert("L"))
    title_bottom = 14 if size == MONO else 22  # below the title bar
    inked = [y for y in range(title_bottom, image.shape[0]) if (image[y, :-8] > 128).any()]
    gaps = [b - a - 1 for a, b in zip(inked, inked[1:])]
    line_h = 11 if size == MONO else 15
    assert max(gaps) < line_h - 3, gaps


PRIVATE_VIEWS = [ScanConfirmView(("fern", "toad")), IngredientPickerView(), LibraryOfferView(("fern", "toad", "root", "claw")),
                 LibraryAnswerView("sun")]
PUBLIC_VIEWS = [PotionView("R+"), IngredientPickerView(private=False), GolemTestView(True, False),
                DebunkYesNoView("R+", True)]


@pytest.mark.parametrize("size", [MONO, COLOUR])
def test_every_private_screen_and_no_public_one_wears_the_padlock(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from firmware.screens import icons

    drawn: list[object] = []
    real = icons.padlock
    monkeypatch.setattr(icons, "padlock", lambda cv, box: (drawn.append(box), real(cv, box)))
    for view in PRIVATE_VIEWS:
        drawn.clear()
        render_view(view, size)
        assert len(drawn) == 1 and drawn[0][1] == 0, view  # once, in the title bar
    for view in PUBLIC_VIEWS:
        drawn.clear()
        render_view(view, size)
        assert drawn == [], view


@pytest.mark.parametrize("size", [MONO, COLOUR])
def test_the_library_answer_is_small_like_the_other_private_screens(size: tuple[int, int]) -> None:
    image = np.array(render_view(LibraryAnswerView("moon"), size).convert("L"))
    rows = [y for y in range(image.shape[0]) if (image[y] > 128).any()]
    public = np.array(render_view(SaleView("exact"), size).convert("L"))
    public_rows = [y for y in range(public.shape[0]) if (public[y] > 128).any()]
    assert max(rows) < image.shape[0] // 2 < max(public_rows)


@pytest.mark.parametrize("view", [GolemTestView(False, False), GolemAnimationView(False)])
def test_public_results_are_never_dim_on_the_colour_screen(view: object) -> None:
    image = np.array(render_view(view, COLOUR).convert("RGB"))
    text_rows = image[90:]  # below the golem: the words
    assert (text_rows == 255).all(axis=2).any()


@pytest.mark.parametrize("code", ["DEMO", "BKQWM"])
def test_the_game_code_fills_the_square_panel(code: str) -> None:
    """On 128x128 a row of 4-5 letters is held to a sixth of the height by the width: the code is
    written in two rows, so it can be read across the table."""
    image = np.asarray(render_view(GameCodeView(code), COLOUR, "en").convert("L")) > 200
    body = image[COLOUR[1] // 8:COLOUR[1] * 7 // 8]         # between the title bar and the key hints
    rows = np.flatnonzero(body.any(axis=1))
    lines = np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1)
    assert len(lines) == 2
    assert sum(len(line) for line in lines) >= 0.35 * COLOUR[1]
