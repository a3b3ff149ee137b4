"""Sample views of every screen: the golden-image tests, the docs and the fit test use them.

``python -m firmware.screens.gallery OUT_DIR [--scale 4] [--only a,b] [--sheet]`` writes one PNG
per sample, size and language (nearest-neighbour scaled, for looking at them on a desktop), or
with ``--sheet`` one contact sheet per size.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from firmware.i18n import LANGUAGE_NAMES, LANGUAGES
from firmware.screens.draw import COLOUR, MONO, render_view
from firmware.screens.text import Raw, msg
from firmware.screens.views import (
    CALIBRATION_BACK_STEPS,
    INGREDIENTS,
    POTIONS,
    QUALITIES,
    CalibrationBackView,
    CalibrationView,
    ChoiceView,
    CodeEntryView,
    ConfirmView,
    DebunkSignView,
    DebunkYesNoView,
    ExhibitionView,
    GameCodeView,
    GolemAnimationView,
    GolemTestView,
    HistoryEntry,
    HistoryView,
    HoldView,
    IdleView,
    IngredientPickerView,
    LibraryAnswerView,
    LibraryOfferView,
    MenuView,
    MessageView,
    PotionView,
    RevealAllView,
    RevealAnimatorsView,
    RevealGolemView,
    RevealIngredientView,
    SaleView,
    ScanConfirmView,
    ScanPromptView,
    SCAN_STATUSES,
    SettingItem,
    SettingsView,
)

MAIN_MENU = ("menu.experiment", "menu.sell", "menu.debunk", "menu.exhibition", "menu.golem",
             "menu.library", "menu.history", "menu.reveal", "menu.game")
GAME_MENU = ("menu.show_code", "menu.settings", "menu.new_game", "menu.restore")
OVER_MENU = ("menu.new_game", "menu.restore", "menu.reveal", "menu.history", "menu.settings")

HISTORY = (
    HistoryEntry("potion", potion="R+"),
    HistoryEntry("sale", quality="sign"),
    HistoryEntry("debunk_sign", ingredient="root", colour="R", sign="+"),
    HistoryEntry("golem_test", chest=True, ears=True),
    HistoryEntry("debunk_pair", potion="B-", answer=False),
    HistoryEntry("exhibition", potion="B+", success=True),
    HistoryEntry("golem_animate", success=False),
    HistoryEntry("debunk_variant", potion="N"),
)

SETTINGS = (
    SettingItem("settings.language", Raw("English")),
    SettingItem("settings.level", "level.apprentice"),
    SettingItem("settings.tolerance", Raw("3")),
    SettingItem("settings.brightness", Raw("80%")),
    SettingItem("settings.calibrate", Raw("›")),
)

SAMPLES: dict[str, object] = {
    "menu": MenuView("menu.title", MAIN_MENU, selected=5),
    "new_game": SettingsView((SettingItem("newgame.rules", "rules.base"),
                              SettingItem("newgame.level", "level.apprentice"),
                              SettingItem("newgame.golem", "value.off"),
                              SettingItem("menu.start", Raw("›"))), selected=3,
                             title="newgame.title"),
    "settings": SettingsView(SETTINGS, selected=1),
    "message_camera": MessageView("error.camera_missing"),
    "message_storage": MessageView("error.storage_full", title="info.title", error=False),
    "idle": IdleView(dx=3, dy=-2, code="DEMO"),
    "game_code": GameCodeView("DEMO"),
    "game_code_golem": GameCodeView("BKQWM"),
    "code_entry": CodeEntryView("DE", "M", length=4),
    "code_entry_error": CodeEntryView("ABC", "D", length=4, error="code.error.length"),
    "scan_nothing": ScanPromptView(2, "nothing"),
    "scan_adjust": ScanPromptView(2, "adjust"),
    "scan_reading_one": ScanPromptView(1, "reading"),
    "scan_confirm": ScanConfirmView(("root", "feather")),
    "scan_more": ScanPromptView(2, "more"),
    "scan_same": ScanPromptView(2, "same"),
    "scan_learn": ScanPromptView(2, "learn"),
    "scan_turn": ScanPromptView(2, "turn"),
    "scan_again": ScanConfirmView(("root", "feather"), again=True),
    "picker": IngredientPickerView(selected=4, chosen=("fern",), title="pick.second"),
    "choice_potion": ChoiceView("potion", selected=2),
    "choice_potion_all": ChoiceView("potion", selected=6, options=POTIONS,
                                    title="choose.debunk_potion"),
    "choice_colour": ChoiceView("colour", selected=1, title="choose.colour"),
    **{f"potion_{p.replace('+', 'plus').replace('-', 'minus')}": PotionView(p) for p in POTIONS},
    "debunk_variant": PotionView("G-", title="debunk.title"),
    **{f"sale_{q}": SaleView(q) for q in QUALITIES},
    "debunk_sign_plus": DebunkSignView("G", "+"),
    "debunk_sign_minus": DebunkSignView("B", "-"),
    "debunk_yes": DebunkYesNoView("R+", True),
    "debunk_no": DebunkYesNoView("B-", False),
    "exhibition_success": ExhibitionView("B+", True),
    "exhibition_failure": ExhibitionView("R-", False),
    **{f"golem_test_{int(c)}{int(e)}": GolemTestView(c, e)
       for c in (False, True) for e in (False, True)},
    "golem_alive": GolemAnimationView(True),
    "golem_not_alive": GolemAnimationView(False),
    "library_offer": LibraryOfferView(("claw", "root", "toad", "feather"), selected=1),
    "library_sun": LibraryAnswerView("sun"),
    "library_moon": LibraryAnswerView("moon"),
    "history": HistoryView(HISTORY, top=0),
    "history_scrolled": HistoryView(HISTORY, top=3),
    "history_empty": HistoryView(()),
    "hold": HoldView(0.4),
    "confirm_reveal": ConfirmView(),
    "confirm_replace_game": ConfirmView(question="confirm.replace_game"),
    "reveal_ingredient": RevealIngredientView("root", "Ppn", page=5, pages=9),
    "reveal_ingredient_small": RevealIngredientView("fern", "nPp", page=1, pages=9),
    "reveal_golem": RevealGolemView("R", True, "B", False),
    "reveal_animators": RevealAnimatorsView(("root", "claw")),
    "reveal_all": RevealAllView(("Ppn", "nPp", "pnP", "NNN", "PPP", "Npn", "pNn", "nnN")),
    "calibration_lay": CalibrationView("feather", "lay", 8, 9),
    "calibration_ok": CalibrationView("fern", "ok", 1, 9),
    "calibration_fail": CalibrationView("scorpion", "fail", 6, 9),
    "calibration_back_lay": CalibrationBackView("lay"),
    "calibration_back_fail": CalibrationBackView("fail"),
    "calibration_back_face_up": CalibrationBackView("face_up"),
}
"""Name -> view, one or more per screen."""


def exhaustive_views() -> list[object]:
    """Views with every data value and message the screens can show (for the fit test)."""
    views: list[object] = list(SAMPLES.values())
    views += [PotionView(p, title=t) for p in POTIONS for t in ("potion.title", "debunk.title")]
    views += [DebunkYesNoView(p, a) for p in POTIONS for a in (True, False)]
    views += [ExhibitionView(p, s) for p in POTIONS[:6] for s in (True, False)]
    views += [DebunkSignView(c, s) for c in "RGB" for s in "+-"]
    views += [ChoiceView("potion", k, POTIONS) for k in range(7)]
    views += [ChoiceView("colour", k, title=t) for k in range(3) for t in ("choose.colour",)]
    views += [ChoiceView("potion", 0, title=t) for t in ("choose.potion", "choose.promised")]
    views += [IngredientPickerView(k, title=t, chosen=INGREDIENTS[:1]) for k in range(8)
              for t in ("pick.ingredient", "pick.first", "pick.second")]
    views += [ScanConfirmView((a, b)) for a in INGREDIENTS for b in INGREDIENTS if a != b]
    views += [ScanConfirmView((a,)) for a in INGREDIENTS]
    views += [ScanConfirmView((a, b), again=True) for a in INGREDIENTS[:2] for b in INGREDIENTS[2:4]]
    views += [ScanPromptView(n, st) for n in (1, 2) for st in SCAN_STATUSES]
    views += [CalibrationView(i, st, 8, 9) for i in INGREDIENTS for st in ("lay", "ok", "fail")]
    views += [CalibrationBackView(st) for st in CALIBRATION_BACK_STEPS]
    views += [RevealIngredientView(i, "NNN") for i in INGREDIENTS]
    views += [RevealGolemView(c, cl, e, el) for c, e in (("R", "G"), ("B", "R"))
              for cl in (True, False) for el in (True, False)]
    views += [RevealAnimatorsView((a, b)) for a, b in zip(INGREDIENTS, INGREDIENTS[1:] + INGREDIENTS[:1])]
    views += [RevealAllView(("NNN",) * 8), RevealAllView(("Ppn", "nPp", "pnP", "NNN", "PPP", "Npn", "pNn", "nnN"))]
    views += [LibraryOfferView(INGREDIENTS[k:k + 4], 3) for k in range(5)]
    views += [HistoryView((e,)) for e in HISTORY]
    views += [HistoryView(tuple(HistoryEntry("debunk_sign", ingredient=i, colour=c, sign="-")
                                for c in "RGB"), 0) for i in INGREDIENTS]
    views += [HistoryView((HistoryEntry("golem_test", chest=c, ears=e),))
              for c in (False, True) for e in (False, True)]
    views += [HistoryView(tuple(HistoryEntry(k, potion=p, quality="exact", answer=True)
                                for k in ("potion", "debunk_pair", "debunk_variant")), 0)
              for p in POTIONS]
    views += [HistoryView((HistoryEntry("sale", quality=q),)) for q in QUALITIES]
    views += [MessageView(m) for m in ("error.camera_missing", "error.storage_full", "error.save_damaged",
                                       "error.save_repaired", "error.log_full",
                                       "error.same_kind", "error.no_game", "error.golem_off",
                                       "code.error.length",
                                       msg("error.internal", detail="state file v2"))]
    views += [CodeEntryView("ABC", "Z", 5, error="code.error.length")]
    views += [MenuView("menu.golem", ("menu.golem_test", "menu.golem_animate")),
              MenuView("newgame.rules", ("rules.base", "rules.variant")),
              MenuView("newgame.level", ("level.apprentice", "level.master"))]
    views += [MenuView("menu.title", MAIN_MENU, k) for k in range(len(MAIN_MENU))]
    views += [MenuView("menu.game", GAME_MENU, k) for k in range(len(GAME_MENU))]
    views += [MenuView("menu.title", OVER_MENU, k) for k in range(len(OVER_MENU))]
    views += [SettingsView(tuple(SettingItem("settings.language", Raw(n))
                                 for n in LANGUAGE_NAMES.values()) + (
        SettingItem("settings.level", "level.master"),
        SettingItem("newgame.golem", "value.off"), SettingItem("newgame.golem", "value.on"),
        SettingItem("newgame.rules", "rules.variant"), SettingItem("newgame.rules", "rules.base"),
        SettingItem("newgame.level", "level.apprentice")), 0)]
    views += [GameCodeView(code) for code in ("WWWW", "MMMMM", "IIII")]
    views += [CodeEntryView("WW", "W", 5), CodeEntryView("", "M", 4)]
    views += [HoldView(p) for p in (0.0, 1.0)] + [HoldView(0.5, title="hold.console_title")]
    views += [SettingsView((SettingItem("settings.calibrate", Raw("›")),
                            SettingItem("settings.console", f"console.{state}")), 1)
              for state in ("off", "locked", "unlocked")]
    views += [ConfirmView(question=f"console.asks_{what}", title="settings.console")
              for what in ("new", "restore", "reveal")]
    views += [MessageView(text, title="settings.console", error=False)
              for text in ("console.connected", "console.unlocked_notice", "console.unlocked_pin",
                           "console.locked_notice", "console.new_game", "console.restored",
                           "console.revealed", msg("console.asked", count=1000),
                           "console.is_off")]
    views += [MessageView("console.failed")]
    views += [SettingsView((SettingItem("settings.console", "console.off"), SettingItem("settings.shelf", Raw("›"))), 1)]
    views += [MessageView(f"shelf.{result}", title="settings.shelf", error=result != "captured")
              for result in ("captured", "cards", "no_camera")]
    return views


def contact_sheet(names: list[str], size: tuple[int, int] = MONO,
                  languages: tuple[str, ...] = LANGUAGES, scale: int = 2) -> Image.Image:
    """One image with the samples ``names`` (rows) in ``languages`` (columns), scaled up."""
    cell_w, cell_h = size[0] * scale + 4, size[1] * scale + 4
    sheet = Image.new("RGB", (cell_w * len(languages), cell_h * len(names)), (70, 70, 70))
    for row, name in enumerate(names):
        for col, lang in enumerate(languages):
            image = render_view(SAMPLES[name], size, lang).convert("RGB")
            image = image.resize((size[0] * scale, size[1] * scale), resample=Image.Resampling.NEAREST)
            sheet.paste(image, (col * cell_w + 2, row * cell_h + 2))
    return sheet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--scale", type=int, default=4)
    parser.add_argument("--only", default="", help="comma-separated sample names")
    parser.add_argument("--sheet", action="store_true",
                        help="write sheet-64.png and sheet-128.png (samples x languages)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    names = args.only.split(",") if args.only else list(SAMPLES)
    if args.sheet:
        for size in (MONO, COLOUR):
            contact_sheet(names, size, scale=args.scale).save(args.out / f"sheet-{size[1]}.png")
        return 0
    for name in names:
        for size in (MONO, COLOUR):
            for lang in LANGUAGES:
                image = render_view(SAMPLES[name], size, lang).convert("RGB")
                image = image.resize((image.width * args.scale, image.height * args.scale),
                                     resample=0)
                image.save(args.out / f"{name}-{size[1]}-{lang}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
