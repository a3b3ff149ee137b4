"""The rules of Alchemists and The King's Golem, as the companion app computes them.

Pure Python, standard library only. See RULES.md for the rules it follows.

>>> game = Game.from_code("DEMO")
>>> game.ask(parse_question(["mix", "mushroom", "toad"])).to_data()
{'potion': 'R+'}
"""

from engine.alchemy import (
    ALCHEMICALS,
    COLOUR_NAMES,
    INGREDIENT_IDS,
    POTION_WORDS,
    SIGNED_POTIONS,
    Alchemical,
    Aspect,
    Colour,
    Ingredient,
    LibraryClass,
    Potion,
    Size,
    library_class,
    mix,
    neutral_partner,
    parse_alchemical,
    parse_colour,
    parse_ingredient,
    parse_potion,
    parse_size,
    potion_of,
)
from engine.codes import DecodedCode, codes_to_hand_out, decode_code, encode_code, normalise_code, read_code
from engine.commands import QUESTION_FORMS, error_reply, parse_question, question_form
from engine.errors import (
    CommandError,
    IllegalQuestionError,
    InvalidCodeError,
    LabkitError,
    LogFormatError,
    OptionError,
    UnknownNameError,
)
from engine.answers import (
    AnimationResult,
    Answer,
    AspectSign,
    ExhibitionResult,
    GolemTestResult,
    LibraryOffered,
    LibraryVerdict,
    PairVerdict,
    PotionMade,
    Quality,
    SaleResult,
    Solution,
)
from engine.game import SCHEMA_VERSION, Game, LogEntry, require_signed, sale_quality
from engine.options import Level, Rules, debunk_form, parse_level, parse_rules
from engine.golem import GOLEMS, Golem, GolemReaction
from engine.questions import (
    DebunkPair,
    DebunkPotion,
    DebunkSign,
    Exhibit,
    GolemAnimate,
    GolemTest,
    LibraryAnswer,
    LibraryOffer,
    Mix,
    Question,
    Reveal,
    Sell,
    question_from_data,
)

__all__ = [
    "AnimationResult", "Answer", "AspectSign", "ExhibitionResult", "GolemTestResult", "LibraryOffered",
    "LibraryVerdict", "PairVerdict", "PotionMade", "SaleResult", "Solution",
    "ALCHEMICALS", "COLOUR_NAMES", "GOLEMS", "INGREDIENT_IDS", "POTION_WORDS", "QUESTION_FORMS",
    "SCHEMA_VERSION", "SIGNED_POTIONS", "Alchemical", "Aspect", "Colour", "CommandError",
    "DebunkPair", "DebunkPotion", "DebunkSign", "DecodedCode", "Exhibit", "Game", "Golem",
    "GolemAnimate", "GolemReaction", "GolemTest", "IllegalQuestionError", "Ingredient",
    "InvalidCodeError", "LabkitError", "Level", "LibraryAnswer", "LibraryClass", "LibraryOffer",
    "LogEntry", "LogFormatError", "Mix", "OptionError", "Potion", "Quality", "Question", "Reveal", "Rules", "Sell",
    "Size", "UnknownNameError", "codes_to_hand_out", "debunk_form", "decode_code", "encode_code",
    "error_reply", "library_class", "mix", "neutral_partner", "normalise_code", "parse_alchemical",
    "parse_colour", "parse_ingredient", "parse_level", "parse_potion", "parse_question", "parse_rules",
    "parse_size", "potion_of", "question_form", "question_from_data", "read_code", "require_signed", "sale_quality",
]
