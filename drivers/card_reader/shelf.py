"""The empty shelf as a reference: what in a frame is not the shelf. numpy and OpenCV only.

The camera and the shelf are fixed in the cauldron, so a frame of the empty shelf, captured before
the game, tells the shelf's own texture (stone, a striped grain, a dotted cloth) from a card: the
outline stages, alone, take a lit patch of such a table for a card they cannot read. Between the
capture and a frame of the game the room's light drifts (brightness, colour, a gradient across the
shelf): a smooth change, fitted per colour channel in log light by a quadratic over the frame,
robustly, as the cards are outliers. What the fit leaves is a change: a card, a hand, or a shadow
or glare the capture did not have, told apart by the shelf's texture seen through it. The reader
asks it (step 13, docs/card_reader.md) whether anything of a card's size changed at all (an empty
shelf), whether every change lies under a card named (else a card was left out), and whether an
outline the stages could not read is only the shelf's texture.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from .keypoints import quad_area, shared_area
from .references import check_frame
from .second_look import THIN, finger_bands
from .settings_check import check_settings


@dataclass(frozen=True)
class ShelfSettings:
    """Every number the comparison with the empty shelf uses, with the reason for its value."""

    #: frames are compared at this width: a card of the smallest size read (15 % of the height)
    #: stands 18 px there, and a camera settled by a pixel, blur and sensor noise fade
    width: int = 160
    #: added to each 0..255 level before its logarithm: the noise of a dark shelf (a grey level
    #: of 20, noise of 6) stays a change of at most 0.25 in log light
    dark_floor: float = 16.0
    #: the light's fit keeps this share of the pixels nearest to it in each round: cards and hands
    #: cover less than half of a frame the kit reads
    fit_share: float = 0.5
    #: rounds of the fit, each on the pixels the previous one fitted best
    fit_rounds: int = 3
    #: a change of log light beyond this in a channel, after the light's fit, is not the shelf: a
    #: card's darkest tenth differs from its shelf by 0.26 and more, the shelf's own noise and
    #: JPEG stay within 0.2 in 99 of 100 pixels (25 scenes of every table kind)
    change: float = 0.25
    #: changes thinner than this (px at ``width``) are noise, a grain edge moved by the camera
    speck: int = 3
    #: changes this close (px at ``width``) are one: the parts of a card whose colours match its
    #: shelf's light in places, split by them; cards a player lays apart lie further apart
    gap: int = 5
    #: a change's edge is a card's outline where the change (log light, past the light's fit) climbs
    #: by at least this much a pixel at ``width``: a card's least change, 0.26, is a step of at most
    #: 2 px there (blur, the resize); a shadow's or a glare's soft edge, a third of its size, stays
    #: below 0.04
    sharp_edge: float = 0.1
    #: ... and a change with less than this share of its edge sharp is light, not a card: a card
    #: showed at least 0.72 of its edge sharp, and the shadows and glares the fit left 0.12 at most
    #: (140 scenes of two designs left out, normal and hard)
    least_sharp: float = 0.35
    #: ... judged on at least this much edge (px at ``width``) where a change left beside the cards
    #: meets the shelf: a third of the outline of the smallest card the kit reads (62 px there)
    least_edge: int = 20
    #: ... and holds less than this much sharp edge inside it (card widths; of the smallest card
    #: for a whole change): a card shows half its outline at least (2.4 card widths), and cards
    #: in a shadow beside a card named showed 3.6-7.5 with their faces; the shadows and glares
    #: left beside a card showed 0.12 at most, fingers in them 1.5-1.7 (12 scenes of the tests
    #: and 8 development scenes of two designs)
    sharp_inside: float = 1.0
    #: a change whose light adds at least this much (grey levels) to the shelf's in every channel,
    #: white (its channels within ``glare_tint`` of their mean, and sensor noise), with no more
    #: detail than the shelf's own, is glare: glare is the lamp's white light reflected, and washes
    #: detail out; a card's face adds its own colours and edges
    glare_level: float = 12.0
    glare_tint: float = 0.12
    #: ... and it leaves the shelf's texture showing (``seen_through``) wherever, washed out by the
    #: share of the light that is the shelf's, that texture still stands at least this many times
    #: ``least_texture`` (twice the noise floor, where a correlation over ``texture_window`` is
    #: the shelf's and not chance): a pale card washed out by a glare hides it. No glare on a
    #: table, nor at a glare's rim, left such a patch beyond the cards (0.00 of a card at most;
    #: 171 normal and 189 hard glare scenes of the five designs that the shelf step alone read
    #: "ok", session 70), where a pale card under a glare on striped wood left one of 0.79 of
    #: itself and was taken for the glare (a wrong reading of an A/B run of session 70, small
    #: cards); at once the noise floor, normal glares left up to 0.32
    glare_texture: float = 2.0
    #: a channel at or above this level (0..255, at ``width``) is burnt out: a glare's core clips
    #: at 255, which JPEG, noise and the resize pull down to 245, and the white added to the
    #: shelf is then lost above it; its tint is judged by the channels below it
    burnt_out: float = 245.0
    #: a change this large (share of the cards named, or with none named of the smallest card the
    #: kit reads) may be a card: a card shows at least half of itself, and half of its pixels may
    #: be as dark as its shelf (beside cards named, counted with the changed pixels of their
    #: margin it reaches: ``EmptyShelf._large_with_the_margin``)
    least_card: float = 0.25
    #: the smallest card the kit reads, share of the frame's height (issue 15 point 3), and its aspect
    smallest_card: float = 0.15
    card_aspect: float = 1.4
    #: a changed pixel whose fine texture (log light less its blur over ``texture_blur`` px) around
    #: it (``texture_window`` px) correlates this well with the empty shelf's is the shelf under
    #: other light, a shadow or glare come since: a card's face correlates with the shelf below it
    #: by chance only (under 0.3 in 19 of 20 windows). An outline the stages could not read shows
    #: the shelf again where it correlates this well in the fine band or the coarse one
    #: (``coarse_band``): 779 whole cards on textured shelves (development scenes of four designs)
    #: correlated at most 0.12 with the shelf below them in the fine band and 0.25 in the coarse
    #: one, 586 blocks of a card's width inside them 0.30 in the coarse one
    seen_through: float = 0.5
    texture_blur: float = 1.5
    texture_window: int = 7
    #: a card named where the shelf saw next to no change (``least_card``) hides the shelf when what
    #: did not change under it shows a texture this many times the shelf's there, uncorrelated with
    #: it: a card's print, its colours the shelf's. The shelf's own texture, uncorrelated with its
    #: capture (other light, the camera settled by a fraction of a pixel), was at most 1.9 times as
    #: strong in 257 card-sized stretches of 150 empty tables; cards of the shelf's colours on cloth,
    #: 7-12 times (development scenes)
    hidden_texture: float = 4.0
    #: an outline the stages could not read is the shelf's texture when at most this share of it
    #: changed (outlines of the shelf's texture: 0.0-0.1 in 19 of 20; a card's 0.13 and up but
    #: for one in ten, which hides the shelf's texture all the same: ``shows_the_shelf``)
    outline_changed: float = 0.1
    #: ... judged on at least this many px at ``width`` beyond the cards named (a tenth of the
    #: smallest card's): less is an outline of a card named, or of its part
    least_seen: int = 25
    #: an unread outline covering this share of a card named is that card outlined again, when less
    #: than ``least_card`` of a card lies beyond the cards named: outlines round a named card's
    #: finger or glare covered 0.91-1.0 of it; an unread card beside a named card whose outline
    #: was misfitted over it, 0.53 (a wrong reading of a run at 06f6c78)
    outlined_again: float = 0.9
    #: where the shelf is smooth (a flat stripe of a cloth), a changed pixel is the shelf seen
    #: through when the light of the shelf seen around it (a Gaussian of this many px: a shadow's
    #: soft edge is 1-3 px at ``width``) explains it ...
    around: float = 6.0
    #: ... from enough of that shelf (the Gaussian's weight): deep inside a card, none is near
    least_around: float = 0.25
    #: ... where the shelf's texture there is stronger than this (log light, its deviation): the
    #: grain of cloth, felt and iron is 0.011-0.018, stone's 0.028, a striped grain's 0.15; below,
    #: texture is noise, and a chance correlation of noise is not the shelf (glare washes the
    #: texture out by the share of the light that is the shelf's, and burns it out at ``burnt_out``)
    least_texture: float = 0.012
    #: a block of an outline whose shelf shows texture at the pixel pitch alone (the deviation of
    #: its coarse band under the first of these) is the shelf's, seen again or not, where the
    #: frame shows none beyond the pitch either (under the second): texture at the pitch (a grain
    #: aliased by the resize, the sensor's noise, JPEG's blocks) changes with the camera settled by
    #: a fraction of a pixel and with the frame's compression. Blocks of empty striped wood with
    #: less than 0.01 were not seen again in 15 of 667, with more in none of 2461 (seen scenes from
    #: 26100000, two designs); over such blocks the frame showed at most 0.015 on empty tables
    #: (1028 blocks), and 0.02 and more inside cards but for 1 in 100 (973; 400 seen tarot scenes)
    pitch_only: tuple[float, float] = (0.01, 0.02)
    #: a card's width as a share of the frame's height where no card is named: the middle of the
    #: range the kit reads (15-85 %), for telling a finger from a card
    usual_width: float = 0.3
    #: a change from the frame's edge to a card named, narrower than this (card widths), is the
    #: player's finger on the card: a finger is 0.2-0.35 card widths; a card cut by the frame's
    #: edge shows at least 0.55 of its width (it is ``unsure`` from 0.45 of it outside the frame)
    finger: float = THIN
    #: ... and so is such a change running from a card named for at least this many card lengths,
    #: wherever it ends (a hand lifted out of view, a finger drawn short): no part of a card is
    #: that long and that narrow, as a card's diagonal is 1.23 of its length. So long a change is
    #: as narrow as a finger on average (its area over its length): where it meets the card, the
    #: shelf's fringe around both widens its rectangle past a finger's width (development scenes:
    #: 0.55 card widths for a finger of 0.26), and it is no card lying across as long as it is
    #: narrower than ``finger_across``
    finger_length: float = 1.5
    #: ... or, shorter, while it meets the cards named only across its end: where it touches their
    #: margin it runs no further along itself than a finger is wide (``finger``), and it runs on at
    #: least this many card lengths. A part of a card beneath another is narrower than a finger
    #: only where the card on top covers the rest of its width, so it meets that card along its
    #: whole length (a card is a card width wide: 0.71 of its length, the least run at which the
    #: contact tells a finger's end from a card's side); a finger drawn short (its hand lifted out
    #: of view) runs 1.0-1.1 card lengths beyond the card and met it along 0.10-0.16 card widths
    #: (census scenes of session 64 and small hard scenes of session 65, which it kept unsure)
    finger_at_its_end: float = 0.71
    #: ... and only while it is straight, as a finger is: its rectangle stands no wider (the short
    #: side) than this many times its own thickness (its area over its length). Fingers drawn short
    #: stood 1.01-1.43 times (census scenes of session 70, normal and small hard ones, two
    #: designs); a card of the shelf's light seen only along two of its sides, an L of change whose
    #: rectangle stands as wide as the card while the L is a rim thick, stood 2.17 (a small card on
    #: stone beside another, which the "ok" left out: a wrong reading of the full-bleed's run at
    #: b97005b); the threshold lies between the two, and a larger card's L stands wider still
    finger_straight: float = 1.75
    #: ... and only while it stands less than this many card widths across (the short side of its
    #: rectangle), here and from the frame's edge, where a lump of the finger's shadow or of a
    #: glare's fringe beside it stood 0.51-0.54 across (seen scenes of session 60, which kept the
    #: frame unsure): the fingers and hands passed so stood 0.50-0.64 across (500 development hand
    #: scenes; every finger of 1250 development and 1500 seen normal scenes stood under ``finger``),
    #: where a finger with the strips of a card beneath it beside it, each strip narrower than a
    #: finger, stood 0.99 across (a heavy overlap: ribbon 29100370, a wrong reading of the run at
    #: f783fb8); a finger and a strip as wide as it stand about 0.7 across. So too the parts of a
    #: finger crossing light (``_finger_in_light``) narrower than a finger: 0.21-0.6 across in
    #: its test's scenes, where a finger joined to the band the shelf saw along a pale card's
    #: outline stood 1.04 (a wrong reading of the full-bleed's run at 2881a75)
    finger_across: float = 0.75
    #: ... and only while its parts wider than a finger (an opening by ``finger`` card widths) add
    #: up to less than this share of a card: the fringe where the finger meets the card lies within
    #: the card's margin and leaves none (fingers alone so long and narrow: 0.0, in development
    #: and seen scenes, and 44 of 44 in session 76's A/B), where a card's visible part, joined to
    #: the change of the finger lying over it and diluted by the finger's length, left 0.23 (a
    #: wrong reading of the run at fa24fe8), 0.0996 (a wrong reading of the ribbon's run at
    #: d3f3531, 69621429, under 0.1 before) and 0.055-0.096 (cards under a hand in that A/B), and a
    #: palm 0.51 (a hand, which the benchmark asks ``unsure`` of); the bar lies well under the
    #: least of the cards' parts, as no share between 0.0 and 0.055 was seen
    finger_wide_parts: float = 0.03
    #: an unread outline is judged beside the cards named though parts of a change no card named
    #: explains lie in it, when each is narrower than a finger (``finger``) and together they add
    #: up to less than this share of a card: a finger the shelf saw in pieces where its light is
    #: the shelf's, away from the frame's edge (11 unread outlines that kept seen normal finger
    #: scenes unsure, of 750 of three designs from 33100000: narrower than a finger in 10, adding
    #: up to 0.02-0.08 of a card in 7 of them, 0.10-0.26 in 3); the parts of a card beneath another
    #: beside a finger stand wider or add up to more (a heavy overlap shows 0.55 of it)
    finger_pieces: float = 0.1
    #: a change beside the cards named is theirs when it lies within this share of a card's width
    #: of one: their contact shadow, a corner the outline cut short
    card_margin: float = 0.12
    #: the part of a change beyond the cards named in it counts from this share of a card's width
    #: off their quads (``uncovered_share``): a card's quad stands a little inside its outline or
    #: beyond it (a card placed by its keypoints: corner off by 0.06 of a card's width as a median,
    #: 0.09 at the 90th percentile, 239 placements in 200 scenes of two designs from 58720000), and
    #: the rim of the card left outside its quad holds the card's sharp outline: joined to a soft
    #: change beside the card (the light of a lamp, a shadow) it made that change a part that may be
    #: a card (3 of 6 "a change holds more" of 1500 seen normal scenes from 58710000). Half a
    #: ``card_margin``: the visible part of a card beneath another (0.31-0.37 of a change without
    #: the rim) still counts (its test; 750 scenes from 58730000 and 68730000 read as without it
    #: but one more right)
    placed_rim: float = 0.06
    #: changes no card named explains, each too small to count, that add up to this share of the
    #: least change that may be a card (``least_card``) may be a card a glare burnt out but for
    #: them (``lost_in_glare``): a pale card in a glare that burnt out 0.9 of it showed 0.95
    #: (placeholder 51100180, a wrong reading of the smaller run at 3bfb90d); a card shows its
    #: print where the glare leaves it. At half, on 800 new scenes of two designs (normal from
    #: 42100000, hard from 52100000) the rule acted in 3: two readable ones, a finger in a glare
    #: among them, and a covered card read ``ok`` anyway
    burnt_pieces: float = 0.5
    #: changes too small to count alone are one card's parts when they lie within this share of a
    #: card's width of each other ...
    scattered: float = 0.5
    #: ... and fit in this many times a card's long side: a card's parts fit in one card, the
    #: specks of a patterned shelf spread over it
    scattered_card: float = 1.2
    #: beyond the cards named, what did not change is judged for the shelf's texture hidden at a
    #: coarser band than ``texture_blur``'s (log light blurred over the first of these px, less its
    #: blur over the second): at the fine band a grain near the pixel pitch decorrelates when the
    #: camera settles by a fraction of a pixel, at 1-3 px it stays
    coarse_band: tuple[float, float] = (1.0, 3.0)
    #: ... in blocks of this many px: a card of the smallest size read (15 % of the frame's
    #: height, 18 px here) is about one block wide
    hidden_block: int = 12
    #: ... where the shelf's block has coarse texture to see (its deviation over this): wood
    #: 0.06-0.08, stone 0.03-0.11, tablecloths 0.05-0.22, a striped grain's dark stripes 0.06 (9 of
    #: 10 blocks); iron, copper, cloth and felt 0.003-0.016 have none. Between the two: a pastel
    #: check in a dim light stood at 0.029-0.044 round a grey card of its light that it hid (its
    #: blocks correlating -0.28-0.19 there, 0.9-0.95 where the check showed), under the bar of 0.04
    #: until session 48 (full-bleed 45100305, the wrong reading of the run at e61c12f: `ok` with
    #: the card beside it left out)
    coarse_texture: float = 0.025
    #: ... a block whose coarse texture correlates under this with the shelf's hides it: a card's
    #: face correlates with the shelf below it by chance only (under 0.3 in 19 of 20 windows)
    hidden_seen: float = 0.3
    #: ... and hidden blocks joined in a group of at least this many, and of at least ``least_card``
    #: of a card, hide a card of the shelf's colours: on 80 empty tables, patterned or plain, no
    #: group was larger than one block
    hidden_blocks: int = 2
    #: beyond the cards named, the shelf's colour is judged changed where its channels moved apart
    #: on average over this many px (at ``width``): a striped grain's lines, 2-4 px apart there,
    #: moved by a camera settled by a fraction of a pixel, average out, and the smallest card read
    #: (13 px wide there) still holds the window
    hue_window: int = 9
    #: ... each by at least this much (log light): one channel lighter and another darker than the
    #: room's light explains. Backs of the striped wood's light moved two channels 0.12-0.14 apart
    #: pixel by pixel; at 0.06 the dark rims of an iron table, where the room's light is more than
    #: a quadratic, moved as far over a quarter of a card (development scenes)
    hue_change: float = 0.08
    #: ... over at least this share of a card named, in one piece: three backs of the striped
    #: wood's light beside the card read moved so over 0.24-0.27 of a card (two wrong readings of
    #: the run at 703ae47 and a development scene), right readings `ok` at most 0.14 (838 of the
    #: 1250 development scenes and 526 of 800 seen ones: a glare's rim on felt, the dark rims of
    #: iron, a checked cloth)
    hue_card: float = 0.2
    #: beyond the cards named, what did not change shows a print the shelf did not have where its
    #: fine texture's deviation (``texture_window``) is this many times the shelf's there: the
    #: shelf again, in a shadow or under a glare, keeps its own or washes it out; a frame sharper
    #: than its capture shows it stronger all over, and the bar rises by the frame's usual ratio
    #: (a striped wood 2.7 times as strong all over, development ribbon 7200025)
    print_strength: float = 3.0
    #: ... the shelf's deviation taken as at least this (log light): a plain shelf's texture is
    #: the sensor's noise and JPEG's (0.008-0.017 from the 10th to the 90th percentile on a plain
    #: cloth and a dark mottled table, development scenes), and a frame's noise may be stronger
    #: than its capture's
    print_floor: float = 0.01
    #: ... judged this many px (at ``width``) away from the cards named and the changes joined to
    #: them: their edges are texture as far as the texture's blur and window reach (3 px each)
    print_halo: int = 3
    #: ... opened by this many px: a print fills a card's area, where the texture along an edge of
    #: light (a shadow's sharp rim) is a band: a shadow's rim at 0.6 of the light, sharp to the
    #: pixel on a plain shelf, left 0.31-0.34 of a card so printed, 0.01 once opened so; the
    #: smallest card read stands 13 px wide at ``width``
    print_opening: int = 5
    #: ... over at least this share of a card named, in one piece: two small cards of the shelf's
    #: light so left out of an "ok" showed 0.30 (bricks on a pale stone) and 1.38 (grey noise on a
    #: plain cloth; wrong readings of the run at 1905957); right readings "ok" at most 0.10, unopened
    #: (484 of 800 development scenes, 328 of 500 seen ones)
    print_card: float = 0.25
    #: beyond the cards named, what did not change hides the shelf's fine grain where the shelf
    #: shows one this strong (its fine texture's deviation over ``texture_window``): a striped
    #: grain's lines 2-4 px apart at ``width`` stand 0.15 there, wood 0.06, stone 0.028 (0.014-0.12
    #: from its 10th to 90th percentile), tablecloths 0.005-0.13, cloth and felt 0.011-0.018, where
    #: a frame's noise alone decorrelates a texture (``least_texture``) ...
    grain_texture: float = 0.05
    #: ... or where it shows one this strong (stone, tablecloths) and the frame's fine texture
    #: there is at least ``faint_grain_print`` times as strong as the shelf's: a card's print in
    #: place of a fainter grain. Noise decorrelates a faint grain and keeps its strength: the dark
    #: corners of a dim, noisy frame (5-16 grey levels) showed 0.9-1.0 times the shelf's there and
    #: covered 0.42 of a small card on wood without ``faint_grain_print``, 0.06 with it
    #: (development tarot 7300082, a right reading); a small grey card of bricks on a pale slab of
    #: a stone's light, its print as faint as the stone's (not ``printed``) and too small for
    #: ``hides_a_card``'s blocks, showed 2.5 times (median) and covered 0.36 of a card (full-bleed
    #: 69000987, the wrong reading of the hard run at f9b1326: "ok" with the card beside it alone;
    #: none covered at the first bar alone, until session 54)
    faint_grain: float = 0.02
    #: ... the frame's fine texture's deviation over the shelf's there for a faint grain to be
    #: judged: 2.0 covered 0.14 of that grey card, 1.25 still 0.08 of the small card by the dark
    #: corners (1.5: 0.36 and 0.06)
    faint_grain_print: float = 1.5
    #: ... where the frame's fine texture there correlates under ``hidden_seen`` with the shelf's,
    #: judged only while it correlates at least this well over what is judged as a rule (its
    #: median): a frame whose grain decorrelated all over (a camera settled since its capture,
    #: blur, a dark frame's noise) tells nothing at this band. A right reading "ok" whose frame
    #: correlated 0.40 so would have been covered over 1.02 of a card (development tarot
    #: 7200020); the other right readings correlated 0.65 and more, the two backs left out 0.99
    grain_usual: float = 0.6
    #: ... over at least this share of a card named, in one piece (opened by ``print_opening``):
    #: ringed backs of the striped wood's light left out of an "ok" covered it over 0.44 and 0.77
    #: of a card (placeholder 41100601 and 42100925, wrong readings of the runs at 1905957 and
    #: e7371ce); the other right readings "ok" at most 0.06 (264 of development and seen scenes
    #: on wood, striped wood, stone and tablecloths), and at most 0.18 with every grain from
    #: ``faint_grain`` judged, stronger print or not (1623 readings "ok" of 2250 seen scenes of
    #: session 54, a small card on a tablecloth the highest)
    grain_card: float = 0.25
    #: ... unless the frame at its full resolution shows the shelf's grain there again: its fine
    #: texture (``grain_band``) correlates this well with the shelf's, at the best of the shifts
    #: up to ``grain_shift`` px. A grain finer than two pixels at ``width`` (a striped wood's lines
    #: 3-4 frame px apart) aliases there, and a camera settled by a fraction of a pixel since the
    #: capture moves the pattern so made: patches of a card's size decorrelated where the frame
    #: showed the grain again at 0.88-0.91 (the largest covered 0.37 of a small card beside two
    #: small cards read right, tarot 91600022 of a census), where the ringed backs left out
    #: correlated 0.01 and 0.22
    grain_again: float = 0.6
    #: ... searched over shifts of up to this many frame px each way: a camera settled by up to a
    #: pixel (0.7 in the benchmark's captures), with a pixel more for the band's own blur
    grain_shift: int = 2
    #: ... the fine texture compared there: the frame's grey less its blur by this sigma (frame px),
    #: which keeps a striped wood's lines 3-8 px apart and leaves out the light's slow change
    grain_band: float = 2.0
    #: a card named at a quad short of itself (the homography of the keypoints of one part of its
    #: face, the rest smooth, placed it smaller) leaves the rest of its card a change along its
    #: side; grown over that change to the rectangle round both, it may be at most this many
    #: times the quad it was named at: the colour-wheel face of the tarot, named at 0.64 and 0.53
    #: of itself by its title's and border's keypoints (tarot 90630184, 90630405 of a census of
    #: session 71, 1.44 and 1.69 times); a card named at less than half of itself is no card the
    #: fine look named
    grown_area: float = 2.0
    #: ... and the quad and the changes fill at least this share of that rectangle: a card's own
    #: strip along its side fills it but for specks of its print the shelf saw unchanged (0.985
    #: and 0.964 in those two scenes), where a change off the card's side (a finger, the corner of
    #: a card beside it, a shadow) leaves the rectangle's corners empty
    grown_fill: float = 0.9

    def __post_init__(self) -> None:
        check_settings(self, at_most={"fit_share": 1,                                      # a quantile
                                      "hidden_seen": 1, "grain_usual": 1, "grain_again": 1},  # correlations
                       ordered=("coarse_band", "pitch_only"),
                       under=(("finger", "finger_across"), ("faint_grain", "grain_texture")))


SETTINGS = ShelfSettings()


def _log_light(frame: np.ndarray, settings: ShelfSettings) -> np.ndarray:
    height = max(1, round(frame.shape[0] * settings.width / frame.shape[1]))
    small = cv2.resize(frame, (settings.width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
    return np.log(small + settings.dark_floor)


def _blur(grey: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of ``grey`` that keeps a ramp of light a ramp up to the frame's edge: the
    frame is continued past it by its reflection turned over (2 f(0) - f(k)), where a mirror
    turns a ramp into a ridge the texture would see as detail (class: a glare's or a shadow's
    slope meeting the frame's edge, its texture there taken for a card's)."""
    pad = int(np.ceil(4 * sigma)) + 1
    edge = cv2.copyMakeBorder(grey, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    mirror = cv2.copyMakeBorder(grey, pad, pad, pad, pad, cv2.BORDER_REFLECT_101)
    blurred = cv2.GaussianBlur(2 * edge - mirror, (0, 0), sigma)
    return np.asarray(blurred[pad:-pad, pad:-pad])


# numpy reduces a short last axis (a pixel's three channels) about ten times slower than it
# combines three planes; these give the values of ``.max``, ``.min``, ``.sum``, ``.mean`` and ``.any``
# over the last axis of an H x W x 3 array, exactly, at the planes' speed

def _channel_max(a: np.ndarray) -> np.ndarray:
    return np.maximum(np.maximum(a[..., 0], a[..., 1]), a[..., 2])


def _channel_min(a: np.ndarray) -> np.ndarray:
    return np.minimum(np.minimum(a[..., 0], a[..., 1]), a[..., 2])


def _channel_sum(a: np.ndarray) -> np.ndarray:
    return np.asarray(a[..., 0] + a[..., 1] + a[..., 2])


def _channel_mean(a: np.ndarray) -> np.ndarray:
    return np.asarray(_channel_sum(a) / 3)


def _channel_any(a: np.ndarray) -> np.ndarray:
    return np.asarray(a[..., 0] | a[..., 1] | a[..., 2])


def _texture(light: np.ndarray, settings: ShelfSettings) -> np.ndarray:
    grey = _channel_mean(light)
    return grey - _blur(grey, settings.texture_blur)


def _coarse_texture(light: np.ndarray, settings: ShelfSettings) -> np.ndarray:
    grey = _channel_mean(light)
    fine, coarse = settings.coarse_band
    return _blur(grey, fine) - _blur(grey, coarse)


def _detail(texture: np.ndarray, settings: ShelfSettings) -> np.ndarray:
    """The deviation of ``texture`` around each pixel (over ``texture_window`` px)."""
    window = (int(settings.texture_window),) * 2
    return np.sqrt(np.maximum(cv2.blur(texture * texture, window) - cv2.blur(texture, window) ** 2, 0))


def _local_correlation(seen: np.ndarray, shelf: np.ndarray, window: int) -> np.ndarray:
    """The correlation of two textures (H x W) around each pixel over ``window`` px (a box); 0
    where either is flat."""
    box = (window, window)
    mean_a, mean_b = cv2.blur(seen, box), cv2.blur(shelf, box)
    cross = cv2.blur(seen * shelf, box) - mean_a * mean_b
    spread = np.sqrt(np.maximum(cv2.blur(seen * seen, box) - mean_a ** 2, 0)
                     * np.maximum(cv2.blur(shelf * shelf, box) - mean_b ** 2, 0))
    return np.asarray(np.where(spread > 1e-12, cross / np.maximum(spread, 1e-12), 0.0))


def _light_drift(difference: np.ndarray, settings: ShelfSettings, among: np.ndarray | None = None) -> np.ndarray:
    """The smooth part of a log-light difference (H x W x 3): a quadratic per channel, fitted on
    the ``fit_share`` of pixels nearest to the median difference, then again on the share it fits
    best, ``fit_rounds`` times; only ``among`` the pixels of that mask, if given. Started from a fit
    of every pixel instead, the fit leans towards a glare and the cards and takes more than three
    times the rounds to leave them (class: a glare's surround, dark against a fit pulled up by it,
    taken for a card)."""
    h, w = difference.shape[:2]
    terms = _quadratic_terms(h, w)
    values = difference.reshape(-1, 3)
    chosen = np.ones(len(values), bool) if among is None else among.ravel()
    misfit = _channel_sum(np.abs(values - np.median(values[chosen], axis=0)))
    used = chosen & (misfit <= np.quantile(misfit[chosen], settings.fit_share))
    for _ in range(int(settings.fit_rounds)):
        # least squares by the normal equations, in float64: six terms (their Gram matrix's
        # condition about 200 on the whole grid, 4000 on half of it), where numpy's lstsq
        # decomposes the whole 10,000 x 6 system and took two thirds of the fit's time
        fitted, seen = terms[used].astype(np.float64), values[used].astype(np.float64)
        coefficients = np.linalg.solve(fitted.T @ fitted, fitted.T @ seen).astype(np.float32)
        misfit = _channel_sum(np.abs(values - terms @ coefficients))
        used = chosen & (misfit <= np.quantile(misfit[chosen], settings.fit_share))
    return (terms @ coefficients).reshape(h, w, 3)


@functools.lru_cache(maxsize=4)
def _quadratic_terms(h: int, w: int) -> np.ndarray:
    """The light fit's terms (1, x, y, x², y², xy) at every pixel of an ``h`` x ``w`` image, x and
    y from -0.5 to 0.5 across it: (h * w) x 6 float32, read-only (shared by every fit)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = (xx / w - 0.5).ravel(), (yy / h - 0.5).ravel()
    terms = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=1)
    terms.setflags(write=False)
    return terms


def _burnt_out(light: np.ndarray, settings: ShelfSettings) -> np.ndarray:
    """Where each channel of ``light`` (log, at ``settings.width``) is burnt out (``burnt_out``):
    a bool array of its shape."""
    return np.asarray(np.exp(light) - settings.dark_floor >= settings.burnt_out)


def _not_the_shelf(compared: Comparison) -> np.ndarray:
    """Where ``compared`` changed, is glare or is burnt out: what no rule reads as the shelf."""
    return np.asarray(compared.changes.astype(bool) | compared.glare | compared.burnt)


def _band(frame: np.ndarray, sigma: float) -> np.ndarray:
    """The fine texture of a BGR ``frame`` at its full resolution: its grey less its blur by ``sigma`` px."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return np.asarray(grey - cv2.GaussianBlur(grey, (0, 0), sigma))


def _runs_from_the_edge(region: np.ndarray, from_the_edge: np.ndarray | None) -> bool:
    """Whether a change (``region``, a bool mask) reaches the frame's edge, or lies in a finger
    the shelf saw in pieces from it or beyond its band from it (``from_the_edge``,
    ``EmptyShelf._finger_in_pieces``, ``_finger_in_line`` and ``_beyond_a_band``)."""
    return bool(region[0].any() or region[-1].any() or region[:, 0].any() or region[:, -1].any()
                or (from_the_edge is not None and (region & from_the_edge).any()))


def _across(region: np.ndarray) -> float:
    """How far a change (``region``, a bool mask) stands across: the short side of its smallest
    rectangle (px)."""
    return float(min(cv2.minAreaRect(cv2.findNonZero(region.astype(np.uint8)))[1]))


def _touches(region: np.ndarray, under: np.ndarray) -> bool:
    """Whether a change (``region``, a bool mask) meets a card named (``under``, a uint8 mask)."""
    return bool((cv2.dilate(region.astype(np.uint8), np.ones((3, 3), np.uint8)) & under).any())


def _largest_piece(mask: np.ndarray) -> int:
    """The area (px) of the largest 4-connected piece of ``mask``; 0 for none."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=4)
    return max((int(area) for area in stats[1:, cv2.CC_STAT_AREA]), default=0)


def _blocks(image: np.ndarray, side: int) -> np.ndarray:
    """``image`` (H x W) padded with zeros to whole blocks and cut into them: (rows, side, columns, side)."""
    rows, columns = -(-image.shape[0] // side), -(-image.shape[1] // side)
    padded = np.zeros((rows * side, columns * side), np.float64)
    padded[:image.shape[0], :image.shape[1]] = image
    return padded.reshape(rows, side, columns, side)


def _correlated(seen: np.ndarray, shelf: np.ndarray, least: float) -> bool:
    """Whether two textures (the same pixels) correlate at least ``least``."""
    seen, shelf = seen - seen.mean(), shelf - shelf.mean()
    spread = float(np.sqrt((seen * seen).sum() * (shelf * shelf).sum()))
    return spread > 0 and float((seen * shelf).sum()) >= least * spread


class Textures(NamedTuple):
    """A frame's texture at ``ShelfSettings.width`` in two bands: the fine one (log light less its
    blur over ``texture_blur`` px) and the coarse one (``coarse_band``)."""

    fine: np.ndarray
    coarse: np.ndarray


class Comparison(NamedTuple):
    """A frame compared with the empty shelf, at ``ShelfSettings.width``: where it changed (the
    changes with a card's outline), where the change's edge is sharp like a card's, the share
    of each pixel's light that is the shelf's as the room's light drifted (below 1 where light was
    added since: glare, which washes the shelf's texture out by that share), and where the shelf
    is seen under glare, the frame's fine texture and its deviation (``texture_window``), and
    where the frame or the shelf is burnt out (``burnt_out``)."""

    changes: np.ndarray
    sharp: np.ndarray
    shelf_share: np.ndarray
    glare: np.ndarray
    texture: np.ndarray
    detail: np.ndarray
    burnt: np.ndarray


class EmptyShelf:
    """A frame of the empty shelf, to tell a frame's changes from the shelf's own texture.

    Raises ValueError on a frame that is not a BGR uint8 image (``check_frame``).
    """

    def __init__(self, frame: np.ndarray, settings: ShelfSettings = SETTINGS) -> None:
        if not isinstance(settings, ShelfSettings):
            raise TypeError(f"settings must be ShelfSettings, not {type(settings).__name__}")
        frame = check_frame(frame)
        self.settings = settings
        self.size = (int(frame.shape[1]), int(frame.shape[0]))
        self._frame = frame.copy()
        self._frame.setflags(write=False)
        self._light = _log_light(frame, settings)
        self._texture = _texture(self._light, settings)
        self._coarse = _coarse_texture(self._light, settings)
        self._detail = _detail(self._texture, settings)
        self._burnt = _channel_any(_burnt_out(self._light, settings))

    def __repr__(self) -> str:
        return f"EmptyShelf({self.size[0]}x{self.size[1]})"

    @property
    def frame(self) -> np.ndarray:
        """The frame captured (read-only), to keep it across restarts."""
        return self._frame

    def changes(self, frame: np.ndarray) -> np.ndarray | None:
        """Where ``frame`` is not the shelf: a bool mask at ``settings.width``, or None for a frame
        of another size than the shelf's (another camera mode: it cannot be compared)."""
        compared = self.compare(frame)
        return None if compared is None else compared.changes

    def fits(self, frame: np.ndarray) -> bool:
        """Whether ``frame`` is of the shelf's size (one of another camera mode is never compared)."""
        return (int(frame.shape[1]), int(frame.shape[0])) == self.size

    def compare(self, frame: np.ndarray) -> Comparison | None:
        """``changes`` with the sharp edges of the change (``Comparison``), or None for a frame of
        another size than the shelf's."""
        if not self.fits(frame):
            return None
        light = _log_light(frame, self.settings)
        difference = light - self._light
        drift = _light_drift(difference, self.settings)
        residual = _channel_max(np.abs(difference - drift))
        changed = residual > self.settings.change
        texture = _texture(light, self.settings)
        seen_through = self._shelf_seen_through(texture)
        shelf = ~changed | seen_through
        shelf_share = self._shelf_share(light, drift)
        around = self._light_around(difference, shelf)
        lit = _channel_max(np.abs(difference - around)) <= self.settings.change
        locally = np.where(np.isnan(around), drift, around)
        detail = _detail(texture, self.settings)
        glare = (self._glare(light, drift, detail, shelf_share, seen_through)
                 | self._glare(light, locally, detail, self._shelf_share(light, locally), seen_through))
        changed &= ~shelf & ~lit & ~glare
        speck = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(self.settings.speck),) * 2)
        gap = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(self.settings.gap),) * 2)
        opened = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, speck)
        sharp = self._sharp_edges(residual)
        return Comparison(self._outlined(cv2.morphologyEx(opened, cv2.MORPH_CLOSE, gap), sharp), sharp, shelf_share,
                          glare, texture, detail, self._burnt | _channel_any(_burnt_out(light, self.settings)))

    def _sharp_edges(self, residual: np.ndarray) -> np.ndarray:
        """Where the ``residual`` change climbs like a card's outline (``sharp_edge``), a pixel
        either way: a bool mask."""
        gx = cv2.Sobel(residual, cv2.CV_32F, 1, 0, ksize=3) / 8
        gy = cv2.Sobel(residual, cv2.CV_32F, 0, 1, ksize=3) / 8
        return cv2.dilate((np.hypot(gx, gy) >= self.settings.sharp_edge).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0

    def _outlined(self, changes: np.ndarray, sharp: np.ndarray) -> np.ndarray:
        """``changes`` (a uint8 mask) less those without a card's outline: their edge, within the
        frame, mostly off the ``sharp`` edges, and next to no sharp edge inside them (less than
        ``sharp_inside`` widths of the smallest card the kit reads): a shadow, or the surround of a
        glare, that the light's fit did not follow, on a shelf too smooth to be seen through. A card
        lying in such a shadow keeps its own outline inside it (class: a card in a wide shadow on a
        smooth table, dropped with the shadow)."""
        count, labels = cv2.connectedComponents(changes)
        edges = changes - cv2.erode(changes, np.ones((3, 3), np.uint8))
        edges[0, :] = edges[-1, :] = edges[:, 0] = edges[:, -1] = 0
        on_edge = edges > 0
        edge_px = np.bincount(labels[on_edge], minlength=count)
        sharp_px = np.bincount(labels[on_edge & sharp], minlength=count)
        smallest_width = self._smallest_width(changes)
        soft = (sharp_px < self.settings.least_sharp * edge_px) & ~self._may_be_cards(
            changes, labels, count, sharp, smallest_width)
        soft[0] = True                                       # the background
        return ~soft[labels]

    def _light_beside_the_cards(self, region: np.ndarray, changes: np.ndarray, sharp: np.ndarray,
                                card_width: float) -> bool:
        """Whether a change left beside the cards (``region``, cut from ``changes`` where cards and
        fingers lie) is light: its own edge, where it meets the unchanged shelf within the frame,
        is mostly soft, and it holds next to no sharp edge (a card's outline or face) inside. A
        glare or a shadow whose change joined a card's keeps the card's sharp outline only where
        the card lies (class: light beside a card named, unexplained); a card in that shadow
        keeps its own outline inside it. An edge too short to judge (a region cut all round) is
        not light."""
        if not self._soft_rim(region, changes, sharp):
            return False
        u8 = region.astype(np.uint8)
        return not self._may_be_cards(u8, u8.astype(np.int32), 2, sharp, card_width)[1]

    def light_on_the_empty_shelf(self, region: np.ndarray, compared: Comparison) -> bool:
        """Whether a change where no card is named (``region``, a mask at ``settings.width``, of
        ``compared``'s changes) is light, as ``_light_beside_the_cards`` tells it for the smallest
        card the kit reads once the glare's own slope (``_glare_slope``) is left out of the sharp
        edges. On a dark shelf a glare climbs in log light as steeply as a card's outline, and the
        change round it (a shadow it lies in, or the fringe the glare's test leaves, its added
        light short of ``glare_level``) met that slope on its rim and held it inside (class: glare
        and a shadow on an empty table, read unsure). A card's outline apart from the glare stays
        sharp; the smallest card lying in the glare's slope loses most of it, so the rule is asked
        only of a change in which no card was read."""
        beyond_the_glare = compared.sharp & ~self._glare_slope(compared)
        if not self._soft_rim(region, compared.changes > 0, beyond_the_glare):
            return False
        u8 = region.astype(np.uint8)
        smallest_width = self._smallest_width(region)
        return not self._may_be_cards(u8, u8.astype(np.int32), 2, beyond_the_glare, smallest_width)[1]

    @staticmethod
    def _glare_slope(compared: Comparison) -> np.ndarray:
        """Where ``compared``'s sharp edges are a glare's own slope (a bool mask): the parts of them
        that reach where it found the shelf under glare, as far from that glare as its own radius
        (the radius of a disc of its area). A glare's slope spread 7-11 px beyond glares of 8-13
        px radius (at ``settings.width``; 9 glares of empty tables, two designs' probe scenes and
        the tests'); a card's outline meeting the glare counts beyond that."""
        glare = compared.glare.astype(bool)
        count, parts = cv2.connectedComponents(compared.sharp.astype(np.uint8))
        reach = cv2.dilate(glare.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        of_the_glare = np.zeros(count, bool)
        of_the_glare[parts[reach & compared.sharp]] = True
        of_the_glare[0] = False                              # no sharp edge
        distance, nearest = cv2.distanceTransformWithLabels((~glare).astype(np.uint8), cv2.DIST_L2, 5,
                                                            labelType=cv2.DIST_LABEL_CCOMP)
        radius = np.sqrt(np.bincount(nearest[glare], minlength=int(nearest.max()) + 1) / np.pi)
        return of_the_glare[parts] & (distance <= radius[nearest])

    def _soft_rim(self, region: np.ndarray, changes: np.ndarray, sharp: np.ndarray) -> bool:
        """Whether a change's (``region``, cut from ``changes``) own edge, where it meets the
        unchanged shelf within the frame, is long enough to judge (``least_edge``) and mostly off
        the ``sharp`` edges (``least_sharp``)."""
        edge = region & ~(cv2.erode(region.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
        edge &= cv2.dilate((~changes).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = False
        own = int(np.count_nonzero(edge))
        return own >= self.settings.least_edge and int(np.count_nonzero(edge & sharp)) < self.settings.least_sharp * own

    def _may_be_cards(self, mask: np.ndarray, labels: np.ndarray, count: int, sharp: np.ndarray,
                      card_width: float) -> np.ndarray:
        """Per label (``count`` of them) of the parts ``labels`` of a uint8 ``mask``: whether the part
        holds at least ``sharp_inside`` card widths (``card_width`` px) of ``sharp`` edge inside,
        off its rim: a card's outline or face. Light's soft edge keeps to its rim, where a card's
        outline beside it may lie."""
        return np.asarray(self._sharp_inside(mask, labels, count, sharp)
                          >= self.settings.sharp_inside * self._edge_band(card_width))

    @staticmethod
    def _sharp_inside(mask: np.ndarray, labels: np.ndarray, count: int, sharp: np.ndarray) -> np.ndarray:
        """Per label (``count`` of them) of the parts ``labels`` of a uint8 ``mask``: the px of
        ``sharp`` edge it holds off its rim."""
        inside = cv2.erode(mask, np.ones((5, 5), np.uint8)) > 0
        return np.bincount(labels[inside & sharp], minlength=count)

    @staticmethod
    def _edge_band(card_width: float) -> float:
        """The px of sharp edge a card's width (``card_width`` px) of outline makes, dilated a
        pixel either way."""
        return 3 * card_width

    def _shelf_share(self, light: np.ndarray, drift: np.ndarray) -> np.ndarray:
        """The share of each pixel's light (``light``, log; a mean over its channels) that is the
        shelf's as the room's light ``drift`` lights it: below 1 where light was added since (glare),
        and none of a channel burnt out (``burnt_out``), where no texture is left."""
        burnt = _burnt_out(light, self.settings)
        return _channel_mean(np.where(burnt, 0.0, np.minimum(1.0, np.exp(self._light + drift - light))))

    def _glare(self, light: np.ndarray, drift: np.ndarray, detail: np.ndarray, shelf_share: np.ndarray,
               seen_through: np.ndarray) -> np.ndarray:
        """Where a frame (``light``, log, and its ``detail``, ``_detail``) is the shelf under glare: white light
        added to the shelf's as the ``drift`` lights it, which adds no detail and washes the shelf's
        out by the share of the light that is the shelf's (``shelf_share``: none where burnt out; a
        glare burnt out over a dotted cloth washed its dots out whole, which was taken for a card's
        pieces); a white card hides the shelf's detail (class: a pale card on a textured table taken
        for glare), and its texture where the shelf's, washed out, would still show
        (``glare_texture``, by ``seen_through``: class: a pale card washed out by a glare on a
        textured table, taken for the glare)."""
        floor = self.settings.dark_floor
        added = np.exp(light) - np.exp(self._light + drift)          # grey levels, per channel
        burnt = _burnt_out(light, self.settings)
        level = _channel_sum(np.where(burnt, 0, added)) / np.maximum(_channel_sum((~burnt).astype(np.int64)), 1)
        spread = _channel_max(np.where(burnt, -np.inf, added)) - _channel_min(np.where(burnt, np.inf, added))
        white = (_channel_min(added) >= self.settings.glare_level) & (   # -inf spread: burnt out in every channel
            spread <= self.settings.glare_tint * level + floor / 2)
        seen = self._detail * shelf_share                                # the shelf's, washed out
        slack = self.settings.least_texture
        hidden = (seen >= self.settings.glare_texture * slack) & ~seen_through
        return white & (detail <= self._detail + slack) & (detail >= seen - slack) & ~hidden

    def _light_around(self, difference: np.ndarray, shelf: np.ndarray) -> np.ndarray:
        """The light (a log difference from the empty shelf's, per channel) of the shelf seen
        around each pixel (``shelf``: pixels known to be the shelf), NaN where too little of it is
        near (``least_around``). Where the shelf is smooth, a pixel lit so is a shadow over it;
        glare is judged against this light as well as the room's drift: a glare at a shadow's
        edge adds white to the shadowed shelf, and against the unshadowed one it looks tinted by
        the shadow (class: a glare's rim on a shadow, a change on an empty table)."""
        weight = cv2.GaussianBlur(shelf.astype(np.float32), (0, 0), self.settings.around)
        light = cv2.GaussianBlur(difference * shelf[..., None], (0, 0), self.settings.around)
        light /= np.maximum(weight, 1e-6)[..., None]
        light[weight < self.settings.least_around] = np.nan
        return np.asarray(light)

    def _shelf_seen_through(self, texture: np.ndarray) -> np.ndarray:
        """Where the shelf's own texture shows in a frame's ``texture`` (a shadow or glare over it)."""
        correlation = _local_correlation(texture, self._texture, int(self.settings.texture_window))
        return np.asarray((correlation >= self.settings.seen_through) & (self._detail >= self.settings.least_texture))

    def texture(self, frame: np.ndarray) -> Textures:
        """A frame's textures at ``settings.width``, as ``shows_the_shelf`` compares them."""
        light = _log_light(frame, self.settings)
        return Textures(_texture(light, self.settings), _coarse_texture(light, self.settings))

    def shows_the_shelf(self, texture: Textures, changes: np.ndarray, quad: np.ndarray,
                        cards: list[np.ndarray], unexplained: list[np.ndarray] | None = None,
                        washed_by: Comparison | None = None, read_closer: np.ndarray | None = None,
                        burnt: np.ndarray | None = None) -> bool:
        """Whether an outline (``quad``, frame px) the stages could not read is, beyond the ``cards``
        named (quads, frame px), the shelf's own texture (the frame's ``texture``): almost nothing
        there changed, and its texture is the shelf's, seen again. A card faint against its shelf (a
        back on a wood of its colour) changes little, but hides the shelf's texture; on a smooth
        shelf, with no texture to see again, an outline is never the shelf's. Its texture is seen
        again on the whole and in every block of a card's width with texture to see
        (``least_texture``): an outline around a whole table, mostly the shelf's, may hide a card of
        the shelf's light in a part of it; a block where the shelf and the frame both show texture
        at the pixel pitch alone is the shelf's unseen (``pitch_only``: class, an aliased grain not
        seen again once the camera settled by a fraction of a pixel). An outline that covers a card
        named (``outlined_again``) with less than a card, as the shelf counts one (``least_card``),
        beyond the cards named is that card's: no card shows there (class: a card named, outlined
        again by the stages round the finger or glare on it). Given the frame's ``unexplained``
        parts (``unexplained_parts``), an outline whose change beyond the cards named holds none (it
        is light beside them, or a finger) is theirs when what did not change of it is less than a
        card as the shelf counts one, or shows the shelf's texture again: no card can lie there
        (class: an outline misfitted round a card named and the glare or shadow beside it); or,
        given where the frame is ``burnt`` out (``Comparison``), when no card can lie there lost
        whole in a glare (``_nothing_lost_in_glare``): elsewhere a card's print would change the
        light, and a card of the shelf's colours beyond the cards named is left to
        ``hides_a_card``, ``recoloured``, ``printed`` and ``covers_the_grain`` (class: an outline
        round a card named and the table beside it, whose faint texture the sensor's noise or a
        glare hides, where nothing changed). Given the frame's comparison (``washed_by``), a
        block has texture to see only as far as glare left it: a block the glare burnt out, or
        washed below ``least_texture``, is not judged (class: an outline round a glare on an empty
        table); and it is judged by its pixels off the glare (``Comparison.glare``: the shelf under
        white light, its detail washed out, told there by the comparison), as the glare's own
        slope fills both bands of the texture where it lies (class: an outline over a soft glare on
        an empty table, a block of it at the glare's rim, its texture seen again beside the glare
        and not across it); with fewer than ``least_seen`` pixels off it, a block is not judged.
        Nor is what the frame or its shelf burnt out (``Comparison.burnt``), where no texture is
        left to see, on the whole as in its blocks (class: a checked tablecloth captured under a
        brighter light, its pale squares burnt out, and an outline over them judged on the whole by
        pixels where the shelf holds no texture: the ribbon's 69610936, an empty table of session
        75's run read unsure).
        The part of the frame ``read_closer`` (a quad, frame px), where cards were read
        again closer with the shelf, is left out: that reading judged the outlines there (class: an
        outline round small cards, too small for the outline stages, and the finger or shadow
        beside them)."""
        inside = self._inside(changes.shape, quad, cards if read_closer is None else [*cards, read_closer])
        seen = np.count_nonzero(inside)
        if seen < self.settings.least_seen:
            return True                  # an outline of a card named, or of its part
        if cards and seen < self._least_card(cards) and any(
                shared_area(np.asarray(quad, np.float32), c) >= self.settings.outlined_again * quad_area(c) for c in cards):
            return True                  # a card named, outlined again round its finger or glare
        pieces = [part for part in unexplained or [] if (part & inside).any()]
        judged = bool(cards) and unexplained is not None and (not pieces or self._finger_pieces(pieces, cards))
        unchanged = inside & ~changes.astype(bool)
        if judged and not pieces and (np.count_nonzero(unchanged) < self._least_card(cards)
                                      or self._nothing_lost_in_glare(unchanged, burnt, cards)):
            return True                  # light beside the cards named or a finger, outlined with them
        if float(changes[inside].mean()) > self.settings.outline_changed:
            if not judged or np.count_nonzero(unchanged) < self.settings.least_seen:
                return False
            inside = unchanged
        off_glare = inside if washed_by is None else inside & ~washed_by.glare & ~washed_by.burnt
        if np.count_nonzero(off_glare) >= self.settings.least_seen and not self._seen_again(texture, off_glare):
            return False
        side = max(3, round(self._card_width(changes, cards) if cards else
                            self._smallest_width(changes)))
        ys, xs = np.nonzero(inside)
        for y in range(int(ys.min()), int(ys.max()) + 1, side):
            for x in range(int(xs.min()), int(xs.max()) + 1, side):
                block = (slice(y, y + side), slice(x, x + side))
                if np.count_nonzero(inside[block]) < side * side / 2:
                    continue
                where = off_glare[block]
                if np.count_nonzero(where) < self.settings.least_seen:
                    continue
                washed = 1.0 if washed_by is None else float(washed_by.shelf_share[block][where].mean())
                if (float(self._texture[block][where].std()) * washed >= self.settings.least_texture
                        and not self._seen_again(texture, where, block)
                        and not self._nothing_beyond_the_pitch(texture, where, block)):
                    return False
        return True

    def _nothing_lost_in_glare(self, unchanged: np.ndarray, burnt: np.ndarray | None,
                               cards: list[np.ndarray]) -> bool:
        """Whether no card can lie lost whole in a glare where an outline did not change
        (``unchanged``, a mask): the frame is ``burnt`` out (``Comparison``) over less of it than a
        card shows (``least_card`` of the ``cards`` named). Elsewhere a card's print would change
        its light; None (the frame's burnt-out pixels not given) is no such judgement."""
        return burnt is not None and int(np.count_nonzero(unchanged & burnt)) < self._least_card(cards)

    def _finger_pieces(self, pieces: list[np.ndarray], cards: list[np.ndarray]) -> bool:
        """Whether the parts of changes no card named explains that reach into an outline
        (``pieces``, masks) are a finger's pieces: each narrower than a finger, and together less
        than ``finger_pieces`` of a card of the ``cards`` named."""
        width = self._card_width(pieces[0], cards)
        if any(self._wider_than_a_finger(piece, width).any() for piece in pieces):
            return False
        together = sum(int(np.count_nonzero(piece)) for piece in pieces)
        return together < self.settings.finger_pieces * self._card_area(cards)

    def _inside(self, shape: tuple[int, ...], quad: np.ndarray, cards: list[np.ndarray] | None = None) -> np.ndarray:
        """The pixels (a bool mask of ``shape``, at ``settings.width``) inside a quad (frame px),
        beyond the ``cards`` (quads, frame px) and off its edge."""
        region = self._filled(shape, [quad]) & (1 - self._filled(shape, cards or []))
        return cv2.erode(region, np.ones((3, 3), np.uint8)) > 0

    def _nothing_beyond_the_pitch(self, texture: Textures, where: np.ndarray, block: tuple[slice, slice]) -> bool:
        """Whether the shelf's texture and a frame's (``texture``) where the mask ``where`` (of the
        ``block`` of the frame) is set both lie at the pixel pitch alone (``pitch_only``)."""
        shelf_bar, frame_bar = self.settings.pitch_only
        return (float(self._coarse[block][where].std()) < shelf_bar
                and float(texture.coarse[block][where].std()) < frame_bar)

    def _seen_again(self, texture: Textures, where: np.ndarray,
                    block: tuple[slice, slice] = (slice(None), slice(None))) -> bool:
        """Whether a frame's ``texture`` correlates with the shelf's where the mask ``where`` (of
        the ``block`` of the frame) is set, in either band (``seen_through``): motion blur, the
        sensor's noise in a shadow or a camera settled by a fraction of a pixel decorrelate a fine
        grain, and leave the coarse band."""
        return (_correlated(texture.fine[block][where], self._texture[block][where], self.settings.seen_through)
                or _correlated(texture.coarse[block][where], self._coarse[block][where], self.settings.seen_through))

    def scale(self) -> float:
        """Mask pixels per frame pixel."""
        return self.settings.width / self.size[0]

    def least_change(self) -> float:
        """The area (mask px) of a change that may be a card: ``least_card`` of the smallest card."""
        side = self.settings.smallest_card * self.size[1] * self.scale()
        return self.settings.least_card * side * side / self.settings.card_aspect

    def hides_the_shelf(self, texture: Textures, changes: np.ndarray, quad: np.ndarray) -> bool:
        """Whether what did not change under a quad (frame px) shows, in the frame's ``texture``, a
        print unlike the shelf's: ``hidden_texture`` times as strong and not the shelf's seen again
        (a card whose colours are the shelf's, where the shelf saw it change in part only)."""
        unchanged = self._inside(changes.shape, quad) & ~changes.astype(bool)
        if np.count_nonzero(unchanged) < self.settings.least_seen:
            return False
        seen, shelf = texture.fine[unchanged], self._texture[unchanged]
        return (float(seen.std()) >= self.settings.hidden_texture * float(shelf.std())
                and not self._seen_again(texture, unchanged))

    def hides_a_card(self, frame: np.ndarray, changes: np.ndarray, cards: list[np.ndarray]) -> bool:
        """Whether, beyond the ``cards`` named (quads, frame px) and a margin round them
        (``card_margin``), what did not change hides the shelf's coarse texture over a card's
        quarter (``hidden_seen``, ``hidden_blocks``): a card whose colours are the shelf's, which
        the shelf saw change in part only, hides its grain or its pattern all the same."""
        if not cards:
            return False
        beyond = self._beyond(changes, cards) & ~changes.astype(bool)
        seen = _coarse_texture(_log_light(frame, self.settings), self.settings)
        side = int(self.settings.hidden_block)
        weight, a, b = (_blocks(x, side) for x in (beyond.astype(np.float64), seen, self._coarse))
        count = weight.sum(axis=(1, 3))
        n = np.maximum(count, 1)

        def mean(x: np.ndarray) -> np.ndarray:
            return np.asarray((weight * x).sum(axis=(1, 3)) / n)

        mean_a, mean_b = mean(a), mean(b)
        var_a, var_b = mean(a * a) - mean_a ** 2, mean(b * b) - mean_b ** 2
        cross = mean(a * b) - mean_a * mean_b
        correlation = cross / np.sqrt(np.maximum(var_a * var_b, 1e-18))
        hidden = ((count >= side * side / 2) & (np.sqrt(np.maximum(var_b, 0)) >= self.settings.coarse_texture)
                  & (correlation < self.settings.hidden_seen)).astype(np.uint8)
        largest = _largest_piece(hidden)
        return largest >= self.settings.hidden_blocks and largest * side * side >= self._least_card(cards)

    def recoloured(self, frame: np.ndarray, compared: Comparison, cards: list[np.ndarray]) -> bool:
        """Whether, beyond the ``cards`` named (quads, frame px) and a margin round them
        (``card_margin``), the shelf's colour changed over a share of a card (``hue_card``): one
        channel lighter and another darker than the room's light explains (``hue_change``), on
        average over ``hue_window`` px of what did not change (``compared``), is not glare and is
        not burnt out. Light alone, a shadow or a glare, moves every channel the same way; a card
        of the shelf's light but not of its hue (a back of the wood's colour) moves them apart,
        where the change in light does not see it. The room's light is fitted again on the pixels
        judged alone: a burnt-out channel cannot follow it, and held the fit back. A finger or an
        arm from the frame's edge (``finger_bands``) is no card: a finger of the shelf's light but
        not of its hue moves its channels apart too (class: a finger across a small card named,
        of a green stone's light, taken for a card of the stone's light, which kept a right
        reading unsure)."""
        if not cards:
            return False
        settings = self.settings
        difference = _log_light(frame, settings) - self._light
        judged = ~(compared.changes.astype(bool) | compared.glare | compared.burnt)
        if np.count_nonzero(judged) < settings.least_seen:
            return False
        change = difference - _light_drift(difference, settings, judged)
        window = (int(settings.hue_window),) * 2
        weight = cv2.blur(judged.astype(np.float32), window)
        mean = cv2.blur(change * judged[..., None], window) / np.maximum(weight, 1e-6)[..., None]
        apart = np.minimum(_channel_max(mean), -_channel_min(mean))
        judged &= weight >= 0.5                  # half the window at least: a few pixels' mean is noise
        moved = (apart >= settings.hue_change) & judged & self._beyond(compared.changes, cards)
        moved &= ~(finger_bands((moved * 255).astype(np.uint8), self._card_width(moved, cards)) > 0)
        return _largest_piece(moved) >= settings.hue_card * self._card_area(cards)

    def printed(self, compared: Comparison, cards: list[np.ndarray]) -> bool:
        """Whether, beyond the ``cards`` named (quads, frame px), their margin (``card_margin``) and
        the changes joined to them (``print_halo`` px further), what did not change shows a print
        the shelf did not have over a share of a card (``print_card``): fine texture
        ``print_strength`` times the shelf's there (``print_floor`` at least), and as many times
        the frame's usual ratio to the shelf's where it is higher (a frame sharper than its capture
        shows all of the shelf's texture stronger), in a piece wider than an edge's band
        (``print_opening``). Light alone keeps the shelf's texture, or washes it out; a card of
        the shelf's light whose print is stronger than the shelf's own (a grey card of bricks on a
        pale stone, grey noise on a plain cloth) adds one, where the change in light saw it in
        specks only."""
        if not cards:
            return False
        settings = self.settings
        judged = self._apart_from(compared, cards)
        if np.count_nonzero(judged) < settings.least_seen:
            return False
        ratio = compared.detail / np.maximum(self._detail, settings.print_floor)
        usual = max(1.0, float(np.median(ratio[judged])))
        printed = self._opened((ratio >= settings.print_strength * usual) & judged)
        return _largest_piece(printed) >= settings.print_card * self._card_area(cards)

    def covers_the_grain(self, compared: Comparison, cards: list[np.ndarray],
                         frame: np.ndarray | None = None) -> bool:
        """Whether, beyond the ``cards`` named (quads, frame px), their margin and the changes
        joined to them, what did not change hides the shelf's fine grain (``grain_texture``, or
        ``faint_grain`` under a stronger print) over a share of a card (``grain_card``): the
        frame's fine texture there correlates under ``hidden_seen`` with the shelf's, where
        elsewhere it correlates as a rule (``grain_usual``).
        Light alone, a shadow or a glare short of burning out, keeps a grain's lines where they
        were; a card of the shelf's light and texture (a ringed back on a striped wood, a small grey
        card of bricks on a stone) puts its own in their place, where the change in light, the
        coarse band and the print see it in specks only. The hidden grain is opened together with
        the specks left unjudged among it (``_unjudged``: a card's pale frame or bright print seen
        as changed, glare or burnt out), which would break it into pieces narrower than the
        opening, and counted without them. With the ``frame`` compared, a piece it shows the
        shelf's grain again in at its full resolution (``_grain_seen_sharp``) does not count: a
        grain the comparison's width aliases, moved by a camera settled since the capture."""
        if not cards:
            return False
        settings = self.settings
        faint = ((self._detail >= settings.faint_grain)
                 & (compared.detail >= settings.faint_grain_print * self._detail))
        judged = self._apart_from(compared, cards) & ((self._detail >= settings.grain_texture) | faint)
        if np.count_nonzero(judged) < settings.least_seen:
            return False
        correlation = _local_correlation(compared.texture, self._texture, int(settings.texture_window))
        if float(np.median(correlation[judged])) < settings.grain_usual:
            return False
        hidden = (correlation < settings.hidden_seen) & judged
        covered = self._opened(hidden | self._unjudged(compared, cards)).astype(bool) & hidden
        least = settings.grain_card * self._card_area(cards)
        if frame is None:
            return _largest_piece(covered) >= least
        count, labels, stats, _ = cv2.connectedComponentsWithStats(covered.astype(np.uint8))
        return any(not self._grain_seen_sharp(frame, labels == i)
                   for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= least)

    def _grain_seen_sharp(self, frame: np.ndarray, piece: np.ndarray) -> bool:
        """Whether ``frame`` (the shelf's size) shows the shelf's fine texture (``grain_band``) again
        over ``piece`` (a bool mask at ``settings.width``) at its full resolution: they correlate
        at least ``grain_again`` at the best shift of up to ``grain_shift`` px."""
        settings = self.settings
        height, width = frame.shape[:2]
        where = cv2.resize(piece.astype(np.uint8), (width, height), interpolation=cv2.INTER_NEAREST).astype(bool)
        reach = int(settings.grain_shift)
        seen = _band(frame, settings.grain_band)[where]
        shelf = np.pad(_band(self._frame, settings.grain_band), reach, mode="edge")
        rows, columns = np.nonzero(where)
        return any(_correlated(seen, shelf[rows + reach + dy, columns + reach + dx], settings.grain_again)
                   for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1))

    def lost_in_glare(self, compared: Comparison, cards: list[np.ndarray]) -> bool:
        """Whether beyond the ``cards`` named (quads, frame px) a card may lie burnt out by a glare:
        changes no card named explains, each too small to count (``unexplained_parts``), within a
        card's width of each other, add up to ``burnt_pieces`` of the least change that may be a
        card, and to all of it with the pixels burnt out beyond the cards within a card's width of
        them (``Comparison.burnt``). Where a glare burns a card out the shelf sees no change; it
        sees the card's print only where the glare left it (class: a pale card beside a card named,
        burnt out over 0.9 of it, its change in pieces just under a card's quarter, left out of an
        "ok"). A finger or an arm in the pieces and the burnt pixels together (``finger_bands``: a
        band from the frame's edge narrower than half a card) is not counted: a pale finger burnt out,
        its rims seen in pieces, is no card."""
        if not cards:
            return False
        parts = self.unexplained_parts(compared.changes, cards, compared.sharp)
        if not parts:
            return False
        card_width = self._card_width(compared.changes, cards)
        pieces = np.any(parts, axis=0)
        burnt = compared.burnt & self._beyond(compared.changes, cards) & ~pieces
        finger = ((finger_bands(((pieces | burnt) * 255).astype(np.uint8), card_width) > 0)
                  | self._finger_in_pieces(pieces, card_width))
        pieces, burnt = pieces & ~finger, burnt & ~finger
        width = max(3, int(card_width) | 1)
        near = cv2.dilate(pieces.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width)))
        count, groups = cv2.connectedComponents(near)
        least = self._least_card(cards)
        for group in (groups == i for i in range(1, count)):
            seen = np.count_nonzero(pieces & group)
            if seen >= self.settings.burnt_pieces * least and seen + np.count_nonzero(burnt & group) >= least:
                return True
        return False

    def _apart_from(self, compared: Comparison, cards: list[np.ndarray]) -> np.ndarray:
        """What did not change (``compared``), is not glare and is not burnt out, beyond the
        ``cards`` named (quads, frame px) and their margin (``card_margin``), ``print_halo`` px
        away from them and from the changes joined to them: a bool mask at ``settings.width``."""
        return np.asarray(~_not_the_shelf(compared) & self._away_from(compared, cards))

    def _unjudged(self, compared: Comparison, cards: list[np.ndarray]) -> np.ndarray:
        """What changed, is glare or is burnt out where ``_apart_from`` would judge it otherwise:
        the holes a card's own changes and bright frame leave in what is judged over it."""
        return np.asarray(_not_the_shelf(compared) & self._away_from(compared, cards))

    def _away_from(self, compared: Comparison, cards: list[np.ndarray]) -> np.ndarray:
        """Beyond the ``cards`` named and their margin, ``print_halo`` px away from them and from
        the changes joined to them (a bool mask at ``settings.width``)."""
        return np.asarray(self._beyond(compared.changes, cards)
                          & ~self._joined_to(compared.changes, cards, int(self.settings.print_halo)))

    def _opened(self, mask: np.ndarray) -> np.ndarray:
        """``mask`` opened by ``print_opening`` px: what fills an area, without the bands along edges."""
        opening = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(self.settings.print_opening),) * 2)
        return np.asarray(cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, opening))

    def _joined_to(self, changes: np.ndarray, cards: list[np.ndarray], reach: int) -> np.ndarray:
        """The pixels (a bool mask like ``changes``) within ``reach`` px of the ``cards`` named
        (quads, frame px) or of a change that meets one within 2 px (the card's own change, a finger
        on it)."""
        named = self._filled(changes.shape, cards)
        _, labels = cv2.connectedComponents(changes.astype(np.uint8))
        meeting = np.unique(labels[cv2.dilate(named, np.ones((5, 5), np.uint8)).astype(bool)])
        joined = named | np.isin(labels, meeting[meeting > 0]).astype(np.uint8)
        return np.asarray(cv2.dilate(joined, np.ones((2 * reach + 1,) * 2, np.uint8)) > 0)

    def _filled(self, shape: tuple[int, ...], cards: list[np.ndarray]) -> np.ndarray:
        """A uint8 mask of ``shape`` (at ``settings.width``), 1 inside the ``cards`` (quads, frame px)."""
        named = np.zeros(shape[:2], np.uint8)
        for q in cards:
            cv2.fillConvexPoly(named, np.round(np.asarray(q, np.float32) * self.scale()).astype(np.int32), 1)
        return named

    def _card_area(self, cards: list[np.ndarray]) -> float:
        """The mean area of the ``cards`` (quads, frame px), in px at ``settings.width``."""
        return float(np.mean([quad_area(q) for q in cards])) * self.scale() ** 2

    def _beyond(self, changes: np.ndarray, cards: list[np.ndarray]) -> np.ndarray:
        """The pixels (a bool mask like ``changes``) beyond the ``cards`` named (quads, frame px)
        and a margin round them (``card_margin`` of a card's width): their contact shadow, a corner
        the outline cut short."""
        named = self._filled(changes.shape, cards)
        grow = max(3, int(2 * self.settings.card_margin * self._card_width(changes, cards)) | 1)
        return np.asarray(cv2.dilate(named, np.ones((grow, grow), np.uint8)) == 0)

    def changed_share(self, changes: np.ndarray, quad: np.ndarray) -> float:
        """The share of a quad (frame px) that ``changes`` shows changed; 1.0 for a quad too small to
        judge. A card named where less than ``least_card`` of it changed is the shelf's own texture
        seen as a card, or a card captured with the shelf."""
        inside = self._inside(changes.shape, quad)
        if np.count_nonzero(inside) < self.settings.least_seen:
            return 1.0
        return float(changes[inside].mean())

    def share_in(self, region: np.ndarray, quad: np.ndarray) -> float:
        """The share of a quad (frame px) that lies in a change (``region``, a mask at
        ``settings.width``); 0.0 for a quad with no pixel in the frame."""
        inside = self._inside(region.shape, quad)
        return float(np.count_nonzero(region & inside)) / max(1, int(np.count_nonzero(inside)))

    def uncovered_share(self, region: np.ndarray, quads: list[np.ndarray], sharp: np.ndarray) -> float:
        """The share of a change (``region``, a mask at ``settings.width``) that lies outside the
        ``quads`` (frame px) and their rim (``placed_rim``) in parts that may be a card: each
        holding at least ``sharp_inside`` card widths of sharp edge (a card's outline or face)
        inside, by the change's ``sharp`` edges; the fringe of a glare or a shadow beside a card
        holds next to none. Parts the rim alone cuts apart are judged as one, by the sharp edge
        they hold inside together (class: the visible part of a card beneath another, which the
        rim around the card on top's corner cut in two, each part too narrow to hold a card's
        width of edge inside its own rim). 1.0 with no quads."""
        if not quads:
            return 1.0
        width = self._card_width(region, quads)
        rim = 2 * max(1, round(self.settings.placed_rim * width)) + 1
        filled = self._filled(region.shape, quads)
        inside = cv2.dilate(filled, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (rim, rim))) > 0
        rest = (region & ~inside).astype(np.uint8)
        count, labels = cv2.connectedComponents(rest)
        size = np.bincount(labels.ravel(), minlength=count)
        _, joined = cv2.connectedComponents((region & (filled == 0)).astype(np.uint8))
        whole_of = np.zeros(count, np.int32)                  # each part's change as the rim did not cut it
        whole_of[labels.ravel()] = joined.ravel()
        sharp_px = self._sharp_inside(rest, labels, count, sharp)
        sharp_px[0] = 0
        held = np.bincount(whole_of, weights=sharp_px)[whole_of]
        may_be_a_card = held >= self.settings.sharp_inside * self._edge_band(width)
        may_be_a_card[0] = False
        return float(size[may_be_a_card].sum()) / max(1, int(np.count_nonzero(region)))

    def unexplained(self, changes: np.ndarray, cards: list[np.ndarray],
                    sharp: np.ndarray | None = None) -> list[np.ndarray]:
        """The changes of a card's size beyond the ``cards`` (quads, frame px) and their margin,
        each as the smallest rectangle around it (frame px): none means every change of the frame
        lies under a card named (or none is left). A finger or an arm from the frame's edge is
        not one (``finger_bands``, its pieces where the shelf saw it in pieces beside cards named,
        and a finger reaching a card named), nor, given the change's
        ``sharp`` edges (``Comparison``), light beside the cards (``_light_beside_the_cards``)."""
        return [self.box(region) for region in self.unexplained_regions(changes, cards, sharp)]

    def unexplained_regions(self, changes: np.ndarray, cards: list[np.ndarray],
                            sharp: np.ndarray | None = None) -> list[np.ndarray]:
        """The changes of ``unexplained``, each as a bool mask at ``settings.width``."""
        return self._unexplained(changes, cards, sharp, self._least_card(cards))

    def unexplained_parts(self, changes: np.ndarray, cards: list[np.ndarray], sharp: np.ndarray) -> list[np.ndarray]:
        """The changes of ``unexplained_regions`` of any size (``least_seen`` px and more, at
        ``settings.width``): a part of a card may lie in them, where none lies in light beside the
        ``cards`` or in a finger."""
        return self._unexplained(changes, cards, sharp, self.settings.least_seen)

    def unexplained_share(self, compared: Comparison, cards: list[np.ndarray]) -> float:
        """What the changes of ``unexplained_parts`` beyond the ``cards`` (quads, frame px) add up
        to, as a share of a card of theirs."""
        if not cards:
            return 0.0
        parts = self.unexplained_parts(compared.changes, cards, compared.sharp)
        return sum(float(np.count_nonzero(part)) for part in parts) / self._card_area(cards)

    def fingers(self, changes: np.ndarray, cards: list[np.ndarray], sharp: np.ndarray) -> np.ndarray:
        """Where ``changes`` (a mask at ``settings.width``) beyond the ``cards`` (quads, frame px) are
        a finger or an arm, as ``unexplained_parts`` tells one (a bool mask like ``changes``)."""
        fingers = np.zeros(changes.shape, bool)
        for region, finger in self._beyond_the_cards(changes, cards, sharp, self.settings.least_seen):
            if finger:
                fingers |= region
        return fingers

    def _unexplained(self, changes: np.ndarray, cards: list[np.ndarray], sharp: np.ndarray | None,
                     least: float) -> list[np.ndarray]:
        """The changes of ``unexplained_regions`` of at least ``least`` px at ``settings.width``."""
        return [region for region, explained in self._beyond_the_cards(changes, cards, sharp, least, True)
                if not explained]

    def _beyond_the_cards(self, changes: np.ndarray, cards: list[np.ndarray], sharp: np.ndarray | None,
                          least: float, light: bool = False) -> list[tuple[np.ndarray, bool]]:
        """The changes beyond the ``cards`` and their margin of at least ``least`` px at
        ``settings.width``, each a bool mask with whether it is a finger or an arm (the bands from
        the frame's edge among them) or, where ``light`` is asked, light beside the cards."""
        mask = changes.astype(np.uint8)
        width = self._card_width(mask, cards)
        bands = (finger_bands(mask * 255, width) > 0) & (mask > 0)   # a finger or an arm coming in from the edge
        mask[bands] = 0
        under = np.zeros_like(mask)
        in_the_margin = np.zeros_like(mask)
        if cards:
            grow = max(3, int(2 * self.settings.card_margin * width) | 1)
            filled = self._filled(mask.shape, cards)
            under = cv2.dilate(filled, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
            in_the_margin = mask & (under > 0) & (filled == 0)
            mask[under > 0] = 0
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        large = stats[:, cv2.CC_STAT_AREA] >= least
        large[0] = False
        if cards:
            large |= self._large_with_the_margin(labels, stats, in_the_margin, least, grow)
        pieces = [labels == i for i in np.flatnonzero(large)]
        pieces += self._scattered((labels > 0) & ~large[labels], width, least)
        from_the_edge = in_pieces = None
        if cards and pieces:
            in_pieces = self._finger_in_pieces(changes > 0, width)
            from_the_edge = in_pieces | self._finger_in_line(mask > 0, under, width) | self._beyond_a_band(mask > 0, bands)
        judged = [(bands, True)] if bands.any() else []
        for region in pieces:
            explained = ((in_pieces is not None and self._in_a_finger_band(region, in_pieces))
                         or (bool(cards) and self._finger_on_a_card(region, under, width, from_the_edge)))
            if not explained and cards and sharp is not None:
                explained = ((light and self._light_beside_the_cards(region, changes > 0, sharp, width))
                             or self._finger_in_light(region, under, changes > 0, sharp, width, from_the_edge)
                             or self._finger_with_its_light(region, under, changes > 0, sharp, width, from_the_edge))
            judged.append((region, explained))
        return judged

    def _large_with_the_margin(self, labels: np.ndarray, stats: np.ndarray, in_the_margin: np.ndarray,
                               least: float, grow: int) -> np.ndarray:
        """Per label of the changes beyond the cards named and their margin (``labels``, ``stats``):
        whether it adds up to ``least`` px with the changed pixels of the margin it reaches
        (``in_the_margin``, a mask; within ``grow`` px of it), whose part beyond the margin
        alone is smaller. A card beneath another, of which half shows, loses the margin's width
        along the card on top to the margin; the least change that may be a card is half of a
        card in view (``least_card``). Class: a card beneath a card named whose outline took in
        part of it, the rest a wedge beside that outline (0.19 of a card beyond the margin,
        0.32 with it), left out of an "ok" (a wrong reading of the full-bleed's run at
        9c29453)."""
        large = np.zeros(len(stats), bool)
        floor = self.settings.least_seen
        near = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow))
        small = (stats[:, cv2.CC_STAT_AREA] >= floor) & (stats[:, cv2.CC_STAT_AREA] < least)
        small[0] = False                                   # the background
        for i in np.flatnonzero(small):
            reach = cv2.dilate((labels == i).astype(np.uint8), near) & in_the_margin
            large[i] = stats[i, cv2.CC_STAT_AREA] + np.count_nonzero(reach) >= least
        return large

    def _scattered(self, small: np.ndarray, width: float, least: float) -> list[np.ndarray]:
        """The changes too small to count alone (``small``, a bool mask) that lie within
        ``scattered`` card widths (``width`` px) of each other, grouped, where a group adds up to
        ``least`` px and fits in a card (``scattered_card`` of its long side): the parts of one
        card whose light the shelf's matches in places, or that glare washes out, which the
        shelf sees apart (class: a card under glare or of the shelf's colours, seen in pieces
        each under a quarter of a card)."""
        if not small.any():
            return []
        reach = max(3, int(self.settings.scattered * width) | 1)
        near = cv2.dilate(small.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
        count, groups = cv2.connectedComponents(near)
        card_long = self.settings.scattered_card * width * self.settings.card_aspect
        found = []
        for i in range(1, count):
            group = small & (groups == i)
            if np.count_nonzero(group) < least:
                continue
            if max(cv2.minAreaRect(cv2.findNonZero(group.astype(np.uint8)))[1]) <= card_long:
                found.append(group)
        return found

    def parts(self, region: np.ndarray, cards: list[np.ndarray]) -> list[np.ndarray]:
        """The parts of a change (``region``, a mask at ``settings.width``) wider than a finger,
        each as the smallest rectangle around it (frame px): a card without the finger on it, or
        the cards whose changes met at a corner. A finger is narrower than ``finger`` card widths
        (of the ``cards`` named, or else of the change's own narrow side)."""
        width = self._card_width(region, cards) if cards else _across(region)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(self._wider_than_a_finger(region, width))
        return [self.box(labels == i) for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= self._least_card(cards)]

    def grown_over(self, region: np.ndarray, quad: np.ndarray, changes: np.ndarray) -> np.ndarray | None:
        """The card at ``quad`` (frame px) grown over a change along its side (``region``, a mask
        at ``settings.width``): the smallest rectangle round both, its corners in ``quad``'s order
        (frame px), where it is at most ``grown_area`` times ``quad`` and the quad and the
        ``changes`` (the rim between it and the region changed too) fill ``grown_fill`` of it;
        else None."""
        q = np.asarray(quad, np.float32)
        points = np.vstack([cv2.findNonZero(region.astype(np.uint8)).reshape(-1, 2) / self.scale(), q])
        rect = cv2.minAreaRect(points.astype(np.float32))
        if rect[1][0] * rect[1][1] > self.settings.grown_area * quad_area(q):
            return None
        grown = _in_the_order_of(cv2.boxPoints(rect).astype(np.float32), q)
        both = changes.astype(np.uint8) | self._filled(region.shape, [q])
        inside = self._filled(region.shape, [grown]) > 0
        if float(both[inside].mean()) < self.settings.grown_fill:
            return None
        return grown

    def box(self, region: np.ndarray) -> np.ndarray:
        """The smallest rectangle around a change (``region``, a mask at ``settings.width``), frame px."""
        rect = cv2.minAreaRect(cv2.findNonZero(region.astype(np.uint8)))
        return cv2.boxPoints(rect).astype(np.float32) / self.scale()

    def _card_width(self, mask: np.ndarray, cards: list[np.ndarray]) -> float:
        """A card's width (px at ``settings.width``): the ``cards``' named, or the usual one."""
        if cards:
            return float(np.sqrt(np.mean([quad_area(q) for q in cards]) / self.settings.card_aspect) * self.scale())
        return self.settings.usual_width * mask.shape[0]

    def _smallest_width(self, mask: np.ndarray) -> float:
        """The width (px at ``settings.width``) of the smallest card the kit reads, in a frame
        whose ``mask`` it is."""
        return self.settings.smallest_card * mask.shape[0] / self.settings.card_aspect

    def _least_card(self, cards: list[np.ndarray]) -> float:
        """The least change that may be a card (px at ``settings.width``)."""
        if cards:
            return self.settings.least_card * self._card_area(cards)
        return self.least_change()

    def _finger_on_a_card(self, region: np.ndarray, under: np.ndarray, card_width: float,
                          from_the_edge: np.ndarray | None = None) -> bool:
        """Whether a change (``region``) runs to a card named (``under``) from the frame's edge,
        for longer than any part of a card (``finger_length``), or, shorter, meeting the cards only
        across its end (``_drawn_short``: a finger drawn short, its hand lifted out of view, where
        a part of a card beneath another as narrow meets the card on top along its length, and a
        card's rim stands wider than it is thick), narrow: narrower than a finger
        (``finger``), or narrow on average and across (``finger_across``) with next to nothing
        wider than a finger (``finger_wide_parts``; a finger widened by the shelf's fringe where
        it meets the card, or by its shadow or glare along it): a finger on the card. A change
        lying in ``from_the_edge`` (a mask: a finger from the edge the shelf saw in pieces,
        ``_finger_in_pieces`` and ``_finger_in_line``, or the rest of a finger beyond the band
        from the edge ``finger_bands`` took, ``_beyond_a_band``) runs from the edge though the piece of it
        on the card does not reach it (class: a finger crossing a stretch of the table of its own
        light, a pale flag of a stone floor, its piece on the card a card length long, which kept
        a right "ok" unsure)."""
        at_edge = _runs_from_the_edge(region, from_the_edge)
        touching = _touches(region, under)
        narrow, length = sorted(cv2.minAreaRect(cv2.findNonZero(region.astype(np.uint8)))[1])
        card_length = self.settings.card_aspect * card_width
        long = length >= self.settings.finger_length * card_length
        if not touching or not (at_edge or long or self._drawn_short(region, under, card_width, narrow, length)):
            return False
        finger = self.settings.finger * card_width
        if narrow <= finger:
            return True
        if not (np.count_nonzero(region) <= finger * length and narrow < self.settings.finger_across * card_width):
            return False
        card = self.settings.card_aspect * card_width ** 2
        wide = np.count_nonzero(self._wider_than_a_finger(region, card_width))
        return bool(wide < self.settings.finger_wide_parts * card)

    def _drawn_short(self, region: np.ndarray, under: np.ndarray, card_width: float, narrow: float,
                     length: float) -> bool:
        """Whether a change (``region``, its rectangle ``narrow`` by ``length`` px), neither from the
        frame's edge nor ``finger_length`` long, may be a finger drawn short on a card named
        (``under``): it runs at least ``finger_at_its_end`` card lengths, meets the cards only
        across its end (``_meets_at_its_end``) and is straight (``finger_straight``). Class: a
        card of the shelf's light seen only along two of its sides, an L of change meeting a card
        named at its end, taken for a finger and left out of an "ok"."""
        if length < self.settings.finger_at_its_end * self.settings.card_aspect * card_width:
            return False
        if narrow > self.settings.finger_straight * np.count_nonzero(region) / length:
            return False
        return self._meets_at_its_end(region, under, card_width)

    def _meets_at_its_end(self, region: np.ndarray, under: np.ndarray, card_width: float) -> bool:
        """Whether a change (``region``, a bool mask) meets the cards named (``under``, a uint8
        mask) only across its end: the pixels of it that touch them run along its length (the
        long side of its smallest rectangle) no further than a finger is wide (``finger`` card
        widths)."""
        ys, xs = np.nonzero(region & (cv2.dilate(under, np.ones((3, 3), np.uint8)) > 0))
        if not len(xs):
            return False
        corners = cv2.boxPoints(cv2.minAreaRect(cv2.findNonZero(region.astype(np.uint8))))
        long_side = max(corners[1] - corners[0], corners[2] - corners[1], key=lambda side: float(np.hypot(*side)))
        along = (xs * long_side[0] + ys * long_side[1]) / max(1e-6, float(np.hypot(*long_side)))
        return float(along.max() - along.min()) + 1.0 <= self.settings.finger * card_width

    def _finger_in_light(self, region: np.ndarray, under: np.ndarray, changes: np.ndarray, sharp: np.ndarray,
                         card_width: float, from_the_edge: np.ndarray | None) -> bool:
        """Whether a change (``region``) is a finger from the frame's edge (or ``from_the_edge``,
        ``_finger_on_a_card``'s) on a card named (``under``) whose change joined a soft shadow's or
        a glare's: it runs from the edge to the card, what of it is wider than a finger (an
        opening by ``finger`` card widths) is light (``_light_beside_the_cards``: its own edge
        soft, no card's outline inside), and what is narrower is a finger: each of its parts
        stands less than ``finger_across`` card widths across. Class: a finger crossing a wide
        shadow on a smooth table, the two one change too wide for a finger and, with the finger's
        sharp outline along it, not light, which kept a right "ok" unsure; a card lying in the
        shadow keeps its outline inside it and counts, and so does a card the shelf sees as a band
        along its outline (its pale face taken for glare on a smooth table) joined to the finger:
        the band and the finger stand a card's width across."""
        if not _runs_from_the_edge(region, from_the_edge) or not _touches(region, under):
            return False
        wide = self._wider_than_a_finger(region, card_width) > 0
        if not wide.any() or not self._light_beside_the_cards(wide, changes, sharp, card_width):
            return False
        return self._narrow_parts_are_fingers(region & ~wide, card_width)

    def _finger_with_its_light(self, region: np.ndarray, under: np.ndarray, changes: np.ndarray, sharp: np.ndarray,
                               card_width: float, from_the_edge: np.ndarray | None) -> bool:
        """Whether a change (``region``) is a finger on a card named (``under``) whose shadow or
        glare beside it joined its change: set aside the parts that its ``sharp`` edges cut it
        into that are light (``_light_beside_the_cards``: soft where they meet the shelf), and
        what is left, every sharp edge of the change with it, lies in one band narrower than a
        finger (``finger``) and is a finger (``_finger_on_a_card``). Class: a shadow or a glare's
        rim lying along a finger, the two one change wider than a finger whose wide part holds
        the finger's sharp outline, so not light (``_finger_in_light``), which kept right
        readings of one card and of cards apart unsure. A card's part keeps its sharp outline
        where it meets the shelf and stays with what is left; a card's straight edge inside the
        shadow, a finger's width or more off the finger, makes what is left too wide."""
        count, parts = cv2.connectedComponents((region & ~sharp).astype(np.uint8))
        light = np.zeros_like(region)
        for i in range(1, count):
            part = parts == i
            if self._light_beside_the_cards(part, changes, sharp, card_width):
                light |= part
        rest = region & ~light
        if not light.any() or not rest.any() or _across(rest) > self.settings.finger * card_width:
            return False
        return self._finger_on_a_card(rest, under, card_width, from_the_edge)

    def _narrow_parts_are_fingers(self, narrow: np.ndarray, card_width: float) -> bool:
        """Whether every part of a change narrower than a finger (``narrow``, a bool mask) stands
        less than ``finger_across`` card widths (``card_width`` px) across, as a finger does with
        the shelf's fringe along it (the short side of the part's smallest rectangle)."""
        count, labels = cv2.connectedComponents(narrow.astype(np.uint8))
        across = self.settings.finger_across * card_width
        return all(_across(labels == i) < across for i in range(1, count))

    def _finger_in_pieces(self, pieces: np.ndarray, card_width: float) -> np.ndarray:
        """The ``pieces`` (a mask) that are a finger from the frame's edge the shelf saw in pieces
        (where it crosses a cloth's dots or stripes the frame burns out): joined across gaps
        narrower than a finger (``finger`` card widths), they come in from the frame's edge as a
        band narrower than half a card (``finger_bands``), as a finger does whole."""
        size = max(3, int(self.settings.finger * card_width) | 1)
        joined = cv2.morphologyEx(pieces.astype(np.uint8), cv2.MORPH_CLOSE,
                                  cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
        return pieces & (finger_bands(joined * 255, card_width) > 0)

    def _in_a_finger_band(self, region: np.ndarray, in_pieces: np.ndarray) -> bool:
        """Whether a change (``region``) lies in a finger from the frame's edge the shelf saw in
        pieces (``in_pieces``, ``_finger_in_pieces``'s) but for fewer than ``least_seen`` px: a
        piece of the band ``finger_bands`` takes whole where the shelf sees the finger whole,
        though it does not reach a card named. Class: a finger crossing a stretch of the table of
        its own light, the piece at the frame's edge cut from the piece on the card, which kept
        a right reading unsure (the stages' outline round the finger then held a piece of change
        no card explains: ribbon 90310088 of a census)."""
        return int(np.count_nonzero(region & ~in_pieces)) < self.settings.least_seen

    def _beyond_a_band(self, beside: np.ndarray, bands: np.ndarray) -> np.ndarray:
        """The pieces of the change beside the cards (``beside``, a bool mask) that touch a finger
        band from the frame's edge (``bands``, ``finger_bands``'s): the rest of a finger whose part
        from the edge the band took, cut from it where the finger widens (its shadow or a glare's
        rim beside it) or reaches a card's margin. Class: a finger's piece by the card, neither at
        the frame's edge nor long, which kept a right reading unsure (ribbon 90230025 of a census)."""
        count, labels = cv2.connectedComponents(beside.astype(np.uint8))
        near = cv2.dilate(bands.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        touching = np.unique(labels[near & beside])
        return np.asarray(np.isin(labels, touching[touching > 0]) & beside)

    def _finger_in_line(self, beside: np.ndarray, under: np.ndarray, card_width: float) -> np.ndarray:
        """The pieces of the change beside the cards (``beside``, a bool mask; the cards named
        dilated in ``under``) that are a finger from the frame's edge the shelf saw in pieces far
        apart (where it crosses a table of its own colours, a striped wood's grain): a piece on a
        card named and a piece at the frame's edge, each narrower than a finger (``finger`` card
        widths of ``card_width`` px), together lie in one straight band narrower than a finger.
        A card's visible part beside them stands wider than a finger, whole or in pieces."""
        count, labels, stats, _ = cv2.connectedComponentsWithStats(beside.astype(np.uint8))
        h, w = beside.shape
        x, y, right, bottom = (stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP],
                               stats[:, cv2.CC_STAT_LEFT] + stats[:, cv2.CC_STAT_WIDTH],
                               stats[:, cv2.CC_STAT_TOP] + stats[:, cv2.CC_STAT_HEIGHT])
        at_edge = (x == 0) | (y == 0) | (right == w) | (bottom == h)
        on_a_card = np.zeros(count, bool)
        on_a_card[labels[cv2.dilate(under, np.ones((3, 3), np.uint8)) > 0]] = True
        finger = self.settings.finger * card_width
        edge_pieces = [labels == i for i in range(1, count) if at_edge[i] and not on_a_card[i]]
        card_pieces = [labels == i for i in range(1, count) if on_a_card[i] and not at_edge[i]]
        edge_pieces = [piece for piece in edge_pieces if _across(piece) <= finger]
        card_pieces = [piece for piece in card_pieces if _across(piece) <= finger]
        found = np.zeros_like(beside, dtype=bool)
        for edge_piece in edge_pieces:
            for card_piece in card_pieces:
                if _across(edge_piece | card_piece) <= finger:
                    found |= edge_piece | card_piece
        return found

    def _wider_than_a_finger(self, region: np.ndarray, card_width: float) -> np.ndarray:
        """The parts of a change (``region``, a mask) wider than a finger (``finger`` card widths
        of ``card_width`` px), as a uint8 mask: the change opened by a disc of a finger's width."""
        size = max(3, int(self.settings.finger * card_width) | 1)
        return cv2.morphologyEx(region.astype(np.uint8), cv2.MORPH_OPEN,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))


class ShelfKeeper:
    """Captures the empty shelf during a game, and again as the room's light drifts: a frame
    becomes it once ``frames`` frames in a row, from it on, were read empty by the stages alone
    and showed no change of a card's size from it (the shelf lay still: no hand over it).

    A card the stages miss entirely could be captured with the shelf; once it is taken away, the
    stages read the shelf empty again and it is captured anew. ``frames`` below 1 raises ValueError.
    """

    def __init__(self, frames: int, settings: ShelfSettings = SETTINGS) -> None:
        if isinstance(frames, bool) or not isinstance(frames, int) or frames < 1:
            raise ValueError(f"frames must be a positive integer, not {frames!r}")
        self.frames = frames
        self.settings = settings
        self._first: EmptyShelf | None = None
        self._still = 0

    def update(self, frame: np.ndarray, read_empty: bool) -> EmptyShelf | None:
        """Feed one frame and whether the stages alone read it empty; returns the shelf captured
        when this frame completes a run."""
        if not read_empty:
            self._first, self._still = None, 0
            return None
        if self._first is not None:
            changes = self._first.changes(frame)
            if changes is not None and np.count_nonzero(changes) < self._first.least_change():
                self._still += 1
                return self._take() if self._still >= self.frames else None
        self._first, self._still = EmptyShelf(frame, self.settings), 1
        return None if self.frames > 1 else self._take()

    def _take(self) -> EmptyShelf | None:
        captured, self._first, self._still = self._first, None, 0
        return captured


def _in_the_order_of(corners: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A rectangle's ``corners`` in the order of ``quad``'s (clockwise from the card's own
    top-left): the turn and winding that move them least onto ``quad``'s."""
    orders = [np.roll(c, -k, axis=0) for c in (corners, corners[::-1]) for k in range(4)]
    return min(orders, key=lambda o: float(np.linalg.norm(o - quad, axis=1).sum()))
