"""Write docs/palettes.md (and docs/img/palette-<game>.svg) from every game's palette file.

Run: `botboard docs` (all generated docs; tests/test_generated_docs.py fails while a doc differs, so the
legend in the docs cannot drift from host/botboard/games/*/table/data/palette.json)
"""

from __future__ import annotations

import os
from pathlib import Path

from botboard.docgen.palettes import PAGE, section, svg

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

INTRO = """\
# LED palettes: what each colour means

<!-- made by docs/make_palettes.py from host/botboard/games/*/table/data/palette.json: edit those -->

Each game lights the board from its own palette file, `host/botboard/games/<game>/table/data/palette.json`:
16 named colours in board order. Every entry has a **role**, which says what it must never be mistaken
for, and a meaning, which the console's *LED colours* panel and this page show.

| role | what it is |
| --- | --- |
| seat | a player's colour: their robots (and base) |
| mark | a seat's colour dimmed: a robot's nose, a checkpoint, a mine (`of` names the seat) |
| piece | something on the arena that is no seat: crystals, rocks, flags, tokens, a KillBot |
| effect | an animation flash for one step: a laser, damage |
| choice | a choice to make, and the game's own highlights (teleporters, the countdown) |
| alert | something to fix: it blinks on the robot concerned |
| floor | an empty cell, a faint glow |
| off | dark |

## Why these colours

A WS2812B is not a screen: each of its three dies emits one narrow band (datasheet dominant
wavelengths red 620-630 nm, green 515-530 nm, blue 465-475 nm), its byte drives the die by PWM (light
is linear in the byte, no gamma), and its equal-drive white is cold. `tests/session/led_colour.py`
models exactly that (the CIE 1931 observer at those wavelengths, weighted by the datasheet's luminous
intensities, white = full drive) and measures how far apart two entries look with **CIEDE2000**.
`tests/session/test_palette_colours.py` checks every palette file, at full brightness and at the
quarter brightness a power limit leaves a bright arena (the renderer's own rounding included):

- the alert is at least **30** from every seat colour, by hue and chroma alone (a blink swings its
  lightness, so lightness cannot tell it apart): it cannot be read as anyone's robot;
- any two seats, pieces, effects, the choice highlight and the alert are at least **25** apart;
- a dim entry (floor, a mark) is at least **15** from every other lit entry but its own seat.

The confusions players met on the first palettes measured 9 (white seat vs choice), 23.4 (yellow
seat vs blob), 23.5 (green seat vs green crystal) and 26.5 (the alert #ff0028 vs the red seat
#ff0000): each breaks one of these rules. A real die emits a band 20-35 nm wide, a little less
saturated than the model's single wavelength, so real distances are somewhat smaller: the thresholds
keep that margin. The alert is the same cyan in every game, the choice highlight the same ice white.

## The colour-blind palette

`botboard run --palette colourblind`, or the palette choice in the console's *LED colours* panel,
lights the board with each entry's `colourblind` colour (an entry without one keeps its colour). It
is checked under simulated deuteranopia and protanopia (Machado, Oliveira & Fernandes 2009, severity
1) and normal vision: seats at least **15** apart, the alert at least **20** from every seat, the
choice highlight at least **15** from seats and from the alert. A dichromat sees one hue axis (blue
to yellow) plus lightness, so this palette spends lightness on the seats (a dark red, a dark green)
and keeps pieces and effects as they are: tell them by where they are and how they move.
"""


def render() -> dict[Path, str]:
    """Every file this script writes -> its text: the table of every installed game and a section
    per table game of botboard's own (found through the registry; a game from another package keeps
    its palette page in its own package: `botboard docs --game NAME` writes it)."""
    from botboard import games

    out: dict[Path, str] = {}
    parts = [INTRO, installed()]
    for name in games.table_names():
        if games.declaration(name).package != "botboard":
            continue
        mapping = games.table(name)
        game = _folder(mapping)
        doc = mapping.palette_doc
        parts.append(section(game, doc))
        out[DOCS / "img" / f"palette-{game}.svg"] = svg(game, doc["palette"])
    out[DOCS / "palettes.md"] = "\n".join(parts)
    return out


def _folder(mapping: type) -> str:
    return Path(mapping.__module__.replace(".", "/")).parts[-3]  # the package folder's name


def installed() -> str:
    """Every installed game, the package it came from, where its palette is and its pages."""
    from botboard import games

    lines = ["## The games installed", "",
             "Made from the games installed where `botboard docs` last ran (botboard's own and the "
             "examples/ a checkout installs); a game from another package keeps its palette page in "
             "its own package.", "",
             "| game | package | palette | pages (its declaration's `docs`) |", "| --- | --- | --- | --- |"]
    for name in games.names():
        d = games.declaration(name)
        own = d.package == "botboard"
        if not d.table:
            palette = "none (no table)"
        elif own:
            palette = f"[below](#{_folder(games.table(name))})"
        else:
            palette = f"`{d.module}/docs/{PAGE}` in its package (`botboard docs --game {name}`)"
        pages = ", ".join(f"[{Path(p).name}]({os.path.relpath(p, 'docs')})" if own else f"`{d.module}/{p}`"
                          for p in d.docs) or "none declared"
        lines.append(f"| {d.title} (`{name}`) | {d.package} | {palette} | {pages} |")
    return "\n".join(lines) + "\n"
