"""A game's palette as a doc: its swatches (SVG) and its table (Markdown), for docs/palettes.md
(botboard's own games) and for the palette page a game from another package keeps in its own
folder (`botboard docs --game NAME`)."""

from __future__ import annotations

from typing import Any

from ..games.declaration import GameDeclaration


def svg(game: str, entries: list[dict[str, Any]]) -> str:
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


def section(game: str, doc: dict[str, Any], image: str = "") -> str:
    """The palette's table under a heading ``game``; ``image``: the swatches' path from the page."""
    entries = doc["palette"]
    image = image or f"img/palette-{game}.svg"
    lines = [f"## {game}", "", f"![{game}'s palette: standard above, colour-blind below]({image})", "",
             "| # | name | role | colour | colour-blind | meaning |", "| --- | --- | --- | --- | --- | --- |"]
    for i, e in enumerate(entries):
        role = e.get("role", "?") + (f" of {e['of']}" if e.get("of") else "")
        cb = hexcode(e["colourblind"]) if "colourblind" in e else "same"
        lines.append(f"| {i} | {e['name']} | {role} | {hexcode(e['rgb'])} | {cb} | {e.get('meaning', '')} |")
    return "\n".join(lines) + "\n"


PAGE = "palette.md"  # a game's own palette page, in its package's docs/ folder


def image_name(declaration: GameDeclaration) -> str:
    return f"palette-{declaration.name}.svg"


def page(declaration: GameDeclaration, doc: dict[str, Any]) -> str:
    """The palette page of a game from another package, beside its swatches."""
    head = (f"# LED palette: {declaration.title}\n\n"
            f"<!-- made by `botboard docs --game {declaration.name}` from its palette file: edit that and "
            "run it again -->\n\n"
            f"{declaration.title} (`--game {declaration.name}`, package {declaration.package}) lights the "
            "board with these 16 colours, in board order. What each role means, and the distances every "
            "palette keeps apart, are on botboard's LED palettes page (docs/palettes.md).\n\n")
    return head + section(declaration.name, doc, image_name(declaration))
