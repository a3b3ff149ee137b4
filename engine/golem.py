"""The King's Golem (RULES.md §5): which aspects it reacts to, and which pair animates it.

>>> golem = Golem(GolemReaction(Colour.R, Size.LARGE), GolemReaction(Colour.G, Size.SMALL))
>>> golem.reaction_to(parse_alchemical("NNN"))
(True, False)
>>> [a.notation for a in golem.animating_alchemicals()]
['pnP', 'pNn']
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.alchemy import ALCHEMICALS, Alchemical, Colour, Size, parse_alchemical
from engine.errors import IllegalQuestionError

@dataclass(frozen=True)
class GolemReaction:
    """One body part's trigger: an aspect colour and a size (sign never matters)."""

    colour: Colour
    size: Size

    def triggered_by(self, alchemical: Alchemical) -> bool:
        """Whether this part reacts to the alchemical.

        >>> GolemReaction(Colour.B, Size.SMALL).triggered_by(parse_alchemical("NNN"))
        False
        """
        return alchemical.aspect(self.colour).size is self.size

    @property
    def needed_sign(self) -> int:
        """The sign an animating alchemical needs in this colour: + for large, - for small.

        >>> GolemReaction(Colour.R, Size.SMALL).needed_sign
        -1
        """
        return 1 if self.size is Size.LARGE else -1

    def to_data(self) -> dict[str, str]:
        """Plain data for the reveal.

        >>> GolemReaction(Colour.G, Size.LARGE).to_data()
        {'colour': 'G', 'size': 'large'}
        """
        return {"colour": self.colour.name, "size": self.size.value}


@dataclass(frozen=True)
class Golem:
    """A golem: its chest glows for one aspect and size, its ears steam for another colour."""

    chest: GolemReaction
    ears: GolemReaction

    def __post_init__(self) -> None:
        if self.chest.colour is self.ears.colour:
            raise IllegalQuestionError(
                "invalid_golem",
                f"golem chest and ears react to the same colour {self.chest.colour.name}; they must differ",
            )

    @property
    def index(self) -> int:
        """The configuration number, 0 to 23, in the order of ``GOLEMS``.

        >>> GOLEMS[17].index
        17
        """
        return GOLEMS.index(self)

    def reaction_to(self, alchemical: Alchemical) -> tuple[bool, bool]:
        """(chest glows, ears steam) for one alchemical.

        >>> GOLEMS[0].reaction_to(parse_alchemical("NNN"))
        (True, True)
        """
        return self.chest.triggered_by(alchemical), self.ears.triggered_by(alchemical)

    def animating_alchemicals(self) -> tuple[Alchemical, Alchemical]:
        """The two alchemicals with both needed signs, in app order.

        >>> [a.notation for a in GOLEMS[0].animating_alchemicals()]
        ['Ppn', 'PPP']
        """
        found = tuple(
            alchemical
            for alchemical in ALCHEMICALS
            if alchemical.aspect(self.chest.colour).sign == self.chest.needed_sign
            and alchemical.aspect(self.ears.colour).sign == self.ears.needed_sign
        )
        first, second = found
        return first, second

    def to_data(self) -> dict[str, dict[str, str]]:
        """Plain data for the reveal (without the animating pair, which needs the assignment).

        >>> GOLEMS[0].to_data()
        {'chest': {'colour': 'R', 'size': 'large'}, 'ears': {'colour': 'G', 'size': 'large'}}
        """
        return {"chest": self.chest.to_data(), "ears": self.ears.to_data()}


def _all_golems() -> tuple[Golem, ...]:
    sizes = (Size.LARGE, Size.SMALL)
    return tuple(
        Golem(GolemReaction(chest_colour, chest_size), GolemReaction(ears_colour, ears_size))
        for chest_colour in Colour
        for ears_colour in Colour
        if ears_colour is not chest_colour
        for chest_size in sizes
        for ears_size in sizes
    )


GOLEMS: tuple[Golem, ...] = _all_golems()
