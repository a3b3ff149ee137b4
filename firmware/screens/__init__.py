"""Screens of the lab kit: view models (``views``) drawn by pure functions (``render``).

>>> from firmware.screens import PotionView, render_view
>>> render_view(PotionView("R+"), (128, 64), "pl").mode
'1'
"""

from firmware.screens.draw import COLOUR, MONO, RENDERERS, render, render_view
from firmware.screens.text import Msg, Raw, Text, TextDoesNotFit, msg
from firmware.screens.views import *  # noqa: F401,F403
from firmware.screens.views import __all__ as _views_all

__all__ = ["COLOUR", "MONO", "RENDERERS", "render", "render_view", "Msg", "Raw", "Text",
           "TextDoesNotFit", "msg", *_views_all]
