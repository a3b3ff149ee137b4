"""Every number the outline detector (``detect.Detector``) uses, with the reason for its value.

Sizes are work-image pixels (the frame brought down to about 240 px high) unless said otherwise; a
card's width is its short side, its area that of its quad. Where the history of a number records no
measurement, its comment says what it does and that it was set by tuning on development scenes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .settings_check import check_settings

#: a card's long side over its short side (the shipped faces are 250 x 350, as ``scenes.CARD_ASPECT``):
#: turns a card's area into its width and back
CARD_ASPECT = 1.4


@dataclass(frozen=True)
class DetectorSettings:
    """Every number the detector uses, with the reason for its value, grouped by the step that uses
    it, in the order the steps run."""

    # -- a card's size and shape: every step --

    #: the shortest long side of a card kept, as a share of the work image's height: the outline
    #: stages read cards of 25-72 % of it (docs/card_reader.md, step 11), smaller ones are the zoom's
    #: (``ZoomSettings.card_height``), and this lower bound keeps the shelf's texture out
    min_card_height: float = 0.25
    #: ... and the longest: a frame left unsure with a longer outline (a camera close to its shelf)
    #: is read again with 0.45-1.0 (``ZoomSettings.large_card``) (set by tuning on development
    #: scenes; no measurement recorded)
    max_card_height: float = 0.72
    #: a card's aspect (long side over short side) as the detector expects it: 1.4 with room for a
    #: tilt of 20 degrees
    aspect: tuple[float, float] = (1.1, 1.8)

    # -- the split of the light: ``find``, ``mask``, ``upper_mask``, ``lower_mask`` --

    #: the grey image is blurred with a Gaussian this wide (px) before each split of its light (and
    #: before the look for a card in shadow), so sensor noise does not fray the outlines (set by
    #: tuning on development scenes; no measurement recorded)
    light_blur: int = 3
    #: the light mask is closed with a square this wide (px): holes and cracks of a pixel in a card's
    #: light frame would break its outline (set by tuning on development scenes; no measurement
    #: recorded)
    light_close: int = 3
    #: the frame's top light is its grey level at this percentile: its brightest things but for a few
    #: specks; glare must come near it (``glare_top``) (set by tuning on development scenes; no
    #: measurement recorded)
    top_percentile: float = 99.5
    #: the light is split again (Otsu's level above or below the first) only among at least this many
    #: pixels: fewer make no histogram to split (set by tuning on development scenes; no measurement
    #: recorded)
    least_split: int = 16

    # -- blobs of the light mask: ``_find_in`` --

    #: a split whose light and dark sides differ by less than this (mean grey levels) shows no card:
    #: a card's light frame stands out of the darker shelf (set by tuning on development scenes; no
    #: measurement recorded)
    least_contrast: float = 25
    #: a pixel's detail is its grey level blurred with the first Gaussian (sigma, px) less it blurred
    #: with the second: a card's print (lines, letters) has it, a glare spot or a lit patch of shelf
    #: does not (set by tuning on development scenes; no measurement recorded)
    detail_band: tuple[float, float] = (0.8, 2.5)
    #: a blob smaller than this share of the smallest card's area is passed over (0.4 at first,
    #: lowered at 345be48) (set by tuning on development scenes; no measurement recorded)
    least_blob: float = 0.2
    #: a blob's outline sharper than this (its mean gradient over the split's contrast) may be a
    #: card's; a softer one is light (a glare spot, a lit patch): a card's outline is sharp, light's
    #: soft (set by tuning on development scenes; no measurement recorded)
    edge_min: float = 0.09
    #: a blob filling less than this share of its convex hull is a card whose light frame is broken
    #: somewhere (a dim edge, a finger), its dark illustration left unfilled: its frame's gaps are
    #: bridged and it is filled again (set by tuning on development scenes; no measurement recorded)
    solid: float = 0.7
    #: ... gaps as wide as this share of the hull's side (the root of its area) ...
    refill_gap: float = 0.06
    #: ... and at least this many px (set by tuning on development scenes; no measurement recorded)
    refill_least: int = 5
    #: ... and the blob filled again replaces the blob when it is at least this many times as large:
    #: the illustration was left out (set by tuning on development scenes; no measurement recorded)
    refill_gain: float = 1.2
    #: a quad with a corner more than this many px outside the work image is cut off by its edge (set
    #: by tuning on development scenes; no measurement recorded)
    cut_margin: int = 2

    # -- one quad per part of a blob: ``_split_and_fit``, ``_fit_region`` --

    #: a blob's card width is taken from its area, at most this share of the largest card's width: a
    #: blob of merged cards is not one huge card, and the opening below stays narrower than a card
    #: (set by tuning on development scenes; no measurement recorded)
    width_cap: float = 0.9
    #: the blob is opened with a disc this share of its card width: fingers (0.18-0.3 of a card's
    #: width in the scenes, ``scenes.random_scene``) and thin bridges between cards vanish, a card
    #: does not (set by tuning on development scenes; no measurement recorded)
    opening: float = 0.38
    #: parts left by the opening smaller than this share of the smallest card's area are dropped (set
    #: by tuning on development scenes; no measurement recorded)
    least_part: float = 0.4
    #: a part's quad fits it when the part covers at least this share of the quad ...
    least_fill: float = 0.8
    #: ... and at most this share of the part lies outside the quad; else the part is card-like but
    #: unreadable (set by tuning on development scenes; no measurement recorded)
    most_spill: float = 0.2
    #: an outline within this many px of the work image's edge touches it: its card goes on beyond
    #: (set by tuning on development scenes; no measurement recorded)
    edge_touch: int = 1
    #: the cards found are grown by a square this wide (px) before the rest of their blob is looked
    #: at: a card's printed cut edge is 1-2 px wide at the work size (``quad_fit.side_steps``), and a
    #: rim that thin is no part of another card (set by tuning on development scenes; no measurement
    #: recorded)
    grown: int = 5

    # -- cards merged into one outline, cut at its notches: ``_split_at_notches`` --

    #: a notch of the outline (a reflex corner) at least this deep, as a share of the blob's side (the
    #: root of its area), is where two cards' outlines cross (set by tuning on development scenes; no
    #: measurement recorded)
    notch_depth: float = 0.05
    #: with one such notch, the next deepest deeper than this (px) is the other crossing: two outlines
    #: crossing at a shallow angle make a shallow notch (c9565e3) (set by tuning on development
    #: scenes; no measurement recorded)
    shallow_notch: float = 2.5
    #: a run of the outline between two notches is fitted with a card's quad when it has at least
    #: this many points ...
    least_run: int = 20
    #: ... and at most this share of the outline's points (more is the whole blob, not one card) (set
    #: by tuning on development scenes; no measurement recorded)
    most_run: float = 0.9
    #: a run's quad is a card when at least this share of the smallest card's area ...
    notch_least_area: float = 0.5
    #: ... covered by the blob for at least this share of it (set by tuning on development scenes; no
    #: measurement recorded)
    notch_fill: float = 0.85
    #: a run's quad overlapping one already found by more than this (intersection over union) is that
    #: card again, from another run (set by tuning on development scenes; no measurement recorded)
    notch_same: float = 0.5
    #: the cards cut at the notches must together explain the blob: at most this share of it lies
    #: outside their quads (set by tuning on development scenes; no measurement recorded)
    notch_rest: float = 0.12

    # -- cards merged into one blob without notches, split by the distance peaks: ``_split_merged`` --

    #: the blob's distance transform is cut at these shares of its peak, highest first, until the
    #: cores found split it into card-fitting parts (set by tuning on development scenes; no
    #: measurement recorded)
    peak_levels: tuple[float, ...] = (0.9, 0.8, 0.7, 0.6)
    #: parts of the split smaller than this share of the smallest card's area are dropped (set by
    #: tuning on development scenes; no measurement recorded)
    merged_least_part: float = 0.4

    # -- a card merged with a glare spot: ``_card_and_glare`` --

    #: what is left beside the card's quad is opened with a disc this share of the card's width ...
    glare_opening: float = 0.3
    #: ... and each piece of at least this share of a card's area must be glare (set by tuning on
    #: development scenes; no measurement recorded)
    glare_piece: float = 0.1

    # -- cards merged into one blob, split by their straight edges: ``_split_by_lines`` --

    #: only a blob of at least this many times the smallest card's area is split by its edges (set
    #: by tuning on development scenes; no measurement recorded)
    lines_least_area: float = 1.3
    #: the blob's box is widened by this many px before its edges are found, so that the blur and
    #: Canny see the shelf around its outline (set by tuning on development scenes; no measurement
    #: recorded)
    lines_pad: int = 4
    #: the grey image is blurred with a Gaussian this wide (px) before Canny finds its edges (set by
    #: tuning on development scenes; no measurement recorded)
    edge_blur: int = 3
    #: Canny's lower level is this share of the light's contrast ...
    canny_share: float = 0.25
    #: ... and at least this many grey levels ...
    canny_least: int = 10
    #: ... and its upper level this many times the lower (set by tuning on development scenes; no
    #: measurement recorded)
    canny_ratio: int = 2
    #: edges are kept within a square this wide (px) around the blob: a card's cut edge lies on the
    #: blob's outline (set by tuning on development scenes; no measurement recorded)
    lines_near: int = 5
    #: a Hough line needs votes from this share of the smallest card's short side (its long side over
    #: the aspect's upper bound) ...
    line_votes: float = 0.35
    #: ... and at least this many (set by tuning on development scenes; no measurement recorded)
    least_votes: int = 12
    #: at most this many Hough lines, strongest first, are looked at ...
    most_lines: int = 150
    #: ... and at most this many distinct ones kept (set by tuning on development scenes; no
    #: measurement recorded)
    most_picked: int = 30
    #: a line within this angle (degrees) ...
    same_line_angle: float = 5
    #: ... and this distance (px) of a line kept is that line again (set by tuning on development
    #: scenes; no measurement recorded)
    same_line_distance: float = 5
    #: two lines within this angle (degrees) of each other are parallel: a card's opposite sides
    #: (set by tuning on development scenes; no measurement recorded)
    parallel: float = 12
    #: ... and make a pair of a card's sides when at least this share of the smallest card's short
    #: side apart (set by tuning on development scenes; no measurement recorded)
    least_pair_gap: float = 0.6
    #: two pairs make a card when the ratio of their gaps lies within the aspect range widened by
    #: these factors ...
    pair_aspect_slack: tuple[float, float] = (0.95, 1.05)
    #: ... the longer gap within the card heights kept, widened by these factors ...
    pair_height_slack: tuple[float, float] = (0.9, 1.05)
    #: ... and the pairs are at right angles within this many degrees (a tilted card's corners are
    #: not quite square) (set by tuning on development scenes; no measurement recorded)
    right_angle: float = 20
    #: a side is a card's printed cut edge when its step (light inside, dark outside) is at least this
    #: share of the light's contrast: a quad needs three such sides, and quads with all four are
    #: tried first (set by tuning on development scenes; no measurement recorded)
    cut_edge_step: float = 0.35
    #: a quad's score is the sum of its three strongest steps and this share of its weakest (set by
    #: tuning on development scenes; no measurement recorded)
    weakest_side: float = 0.5
    #: at most this many quads, best first, are tried ...
    most_quads: int = 40
    #: ... a quad kept lies in the blob for at least this share of it ...
    lines_fill: float = 0.9
    #: ... and overlaps a quad kept before by at most this (intersection over union) ...
    lines_overlap: float = 0.1
    #: ... and at most this many cards are taken from one blob (set by tuning on development scenes;
    #: no measurement recorded)
    most_cards: int = 3
    #: with one card found, the other is the rest of the blob opened with a disc this share of the
    #: card's width ...
    other_opening: float = 0.35
    #: ... its largest piece of at least this share of a card's area (set by tuning on development
    #: scenes; no measurement recorded)
    other_piece: float = 0.3
    #: the cards found must explain the blob but for this share of it ...
    lines_rest: float = 0.05
    #: ... a larger rest is opened with a disc this share of a card's width ...
    rest_opening: float = 0.2
    #: ... and must be glare in every piece of at least this share of a card's area (set by tuning on
    #: development scenes; no measurement recorded)
    rest_piece: float = 0.03

    # -- what is left of a blob beside the cards found in it: ``_split_and_fit``, ``_hidden_frames`` --

    #: whatever thick is left over (a second card the opening swallowed) is opened with a disc this
    #: share of a card's width: a finger or a hand is thinner than a card and vanishes in it ...
    leftover_opening: float = 0.4
    #: ... and its pieces of at least this share of a card's area are looked at again (set by tuning
    #: on development scenes; no measurement recorded)
    leftover_piece: float = 0.15
    #: with no such piece, the thin frame of a card mostly hidden under another is looked for among
    #: the pieces of at least this share of a card's area ...
    hidden_piece: float = 0.04
    #: ... whose rectangle is at least this share of a card's width across (a finger is as thin but
    #: narrow; the L of a covered card's frame spans most of a card) ...
    hidden_span: float = 0.45
    #: ... and whose hull covers at least this share of a card's area (set by tuning on development
    #: scenes; no measurement recorded)
    hidden_hull: float = 0.3

    # -- glare: ``is_glare``, ``is_smooth``, ``_quad_detail`` (used by the steps above and below) --

    #: a region is smooth when its mean detail is below this share of the light's contrast ...
    smooth_max: float = 0.045
    #: ... or, with cards found in the frame, below this share of their median detail (the relative
    #: glare test, d6d577e) (set by tuning on development scenes; no measurement recorded)
    smooth_card_share: float = 0.35
    #: detail is measured inside a region eroded by a square this wide (its outer 2 px left out): its
    #: outline's own edge is no detail of it
    detail_inset: int = 5
    #: a region with fewer pixels than this left inside is too thin to tell smooth: it is kept
    #: (unsure beats wrong) (set by tuning on development scenes; no measurement recorded)
    least_inside: int = 20
    #: glare is among the brightest things in view: the region's grey level at this percentile ...
    glare_percentile: float = 95
    #: ... reaches this share of the frame's top light (a card in shadow does not) ...
    glare_top: float = 0.85
    #: ... and white: the colour (brightest less darkest channel) of its brighter half is below this
    #: share of its light (a finger or a hand is skin-coloured) (set by tuning on development scenes;
    #: no measurement recorded)
    glare_colour: float = 0.3

    # -- a card in shadow beside the cards found: ``_unexplained`` --

    #: the cards found are grown by a square this wide (px) before the rest of the frame is looked at
    #: (set by tuning on development scenes; no measurement recorded)
    shadow_grown: int = 7
    #: a card in shadow is lighter than this share of the way from the shelf's mean to the split's
    #: level: the brightest card sets the level, and a second card in a darker corner can fall below
    #: it (set by tuning on development scenes; no measurement recorded)
    shadow_level: float = 0.5
    #: the region lighter than that is closed with a square this wide (px), its outlines filled (a
    #: card's dark picture counts too) (set by tuning on development scenes; no measurement recorded)
    shadow_close: int = 5
    #: ... opened with a disc this share of a card's width (a finger vanishes) ...
    shadow_opening: float = 0.3
    #: ... and its pieces of at least this share of a card's area, neither glare nor smooth, are
    #: cards in shadow (set by tuning on development scenes; no measurement recorded)
    shadow_least: float = 0.3

    # -- glare quads and arms dropped: ``_drop_flat``, ``_finger_like`` --

    #: a card-thick quad with less detail than this share of the busiest other card's is glare: every
    #: printed card (even the darkest illustration) shows at least 0.45 of it on the tuning scenes, a
    #: glare spot or a lit patch under 0.25
    flat_detail: float = 0.22
    #: ... card-thick: its width is more than this share of the widest other card's; thinner quads (a
    #: card mostly hidden) stay (set by tuning on development scenes; no measurement recorded)
    flat_thick: float = 0.45
    #: a quad within this many px of the work image's edge reaches it ...
    finger_border: int = 3
    #: ... and, unreadable, narrower than this share of a card's width is a finger or an arm, not a
    #: card: a card cut off by the frame shows about half of its width and more ...
    finger_thin: float = 0.45
    #: ... when it is at least this many times as long as it is wide (set by tuning on development
    #: scenes; no measurement recorded)
    finger_long: float = 3.0

    def __post_init__(self) -> None:
        check_settings(self, ordered=("aspect", "detail_band", "pair_aspect_slack", "pair_height_slack"),
                       odd=("light_blur", "edge_blur"),          # Gaussian kernels: OpenCV takes odd sizes only
                       # percentiles of 0..100 (``detect._percentile_u8`` is ``np.percentile``, which refuses more)
                       at_most={"top_percentile": 100, "glare_percentile": 100},
                       under=(("min_card_height", "max_card_height"),))


SETTINGS = DetectorSettings()
