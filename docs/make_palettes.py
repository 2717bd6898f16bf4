"""Write docs/palettes.md (and docs/img/palette-<game>.svg) from every game's palette file.

Run: `botboard docs` (all generated docs; tests/test_generated_docs.py fails while a doc differs, so the
legend in the docs cannot drift from host/botboard/games/*/table/data/palette.json)
"""

from __future__ import annotations

from pathlib import Path

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


def svg(game: str, entries: list[dict]) -> str:
    """One row of swatches per palette variant: the colours as the board is told them."""
    width = 36
    rows = [("standard", [e["rgb"] for e in entries]),
            ("colourblind", [e.get("colourblind", e["rgb"]) for e in entries])]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{110 + 16 * width}" height="{20 + 40 * len(rows)}" '
           f'font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="#111"/>']
    for r, (label, colours) in enumerate(rows):
        y = 10 + 40 * r
        out.append(f'<text x="6" y="{y + 20}" fill="#ddd">{label}</text>')
        for i, c in enumerate(colours):
            out.append(f'<rect x="{110 + i * width}" y="{y}" width="{width - 4}" height="30" rx="4" '
                       f'fill="#{c[0]:02x}{c[1]:02x}{c[2]:02x}" stroke="#444"><title>{entries[i]["name"]}</title></rect>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def hexcode(rgb: list[int]) -> str:
    return "`#%02x%02x%02x`" % tuple(rgb)


def section(game: str, doc: dict) -> str:
    entries = doc["palette"]
    lines = [f"## {game}", "", f"![{game}'s palette: standard above, colour-blind below](img/palette-{game}.svg)", "",
             "| # | name | role | colour | colour-blind | meaning |", "| --- | --- | --- | --- | --- | --- |"]
    for i, e in enumerate(entries):
        role = e.get("role", "?") + (f" of {e['of']}" if e.get("of") else "")
        cb = hexcode(e["colourblind"]) if "colourblind" in e else "same"
        lines.append(f"| {i} | {e['name']} | {role} | {hexcode(e['rgb'])} | {cb} | {e.get('meaning', '')} |")
    return "\n".join(lines) + "\n"


def render() -> dict[Path, str]:
    """Every file this script writes -> its text: a section per table game of botboard's own
    (found through the registry; a game from another package documents its own palette)."""
    from botboard import games

    out: dict[Path, str] = {}
    parts = [INTRO]
    for name in games.table_names():
        if games.declaration(name).package != "botboard":
            continue
        mapping = games.table(name)
        game = Path(mapping.__module__.replace(".", "/")).parts[-3]  # the package folder's name
        doc = mapping.palette_doc
        parts.append(section(game, doc))
        out[DOCS / "img" / f"palette-{game}.svg"] = svg(game, doc["palette"])
    out[DOCS / "palettes.md"] = "\n".join(parts)
    return out
