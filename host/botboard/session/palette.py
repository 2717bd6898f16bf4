"""A game's LED palette file (``table/data/palette.json``): 16 named colours, in board order.

    PALETTE, INDEX, doc = load_palette(path)   # rgb tuples; name -> index; the whole document
    colours(doc, "colourblind")                # the 16 colours of a variant (a missing one: rgb)
    legend(doc, "colourblind")                 # what each lit entry means, for the console and docs

Each entry: ``name`` (what table/leds.py asks for), ``role`` (which entries must look apart:
tests/session/palette_rules.py measures it on the WS2812B), ``rgb``, optionally ``colourblind``
(its colour in the colour-blind palette), ``of`` (a mark: the seat it is a dim form of) and
``meaning`` (the legend's words). Names and indices never change between variants, so a
variant is only other colours sent with SET_PALETTE: no game code knows which one plays.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RGB = tuple[int, int, int]
ROLES = ("off", "floor", "seat", "mark", "piece", "effect", "choice", "alert")
VARIANTS = ("standard", "colourblind")


class PaletteError(ValueError):
    """An unknown palette variant; the message lists the known ones."""


def load_palette(path: Path, meanings: dict[str, str] | None = None,
                 ) -> tuple[tuple[RGB, ...], dict[str, int], dict[str, Any]]:
    """``meanings``: entry name -> its meaning made from the game's own data (a crystal's
    points), so the legend cannot drift from the rules; the file leaves those out."""
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError) as err:  # not UTF-8, not JSON, too long a number, too deep
        raise PaletteError(f"{path}: cannot be read as JSON ({err or 'nested too deep'})") from err
    _check(path, doc)
    index = {e["name"]: i for i, e in enumerate(doc["palette"])}
    for name, meaning in (meanings or {}).items():
        if name not in index:
            raise PaletteError(f"{path}: no palette entry {name!r} to give a meaning to")
        doc["palette"][index[name]]["meaning"] = meaning
    return colours(doc), index, doc


def _check(path: Path, doc: Any) -> None:
    """PaletteError unless ``doc`` is a palette: entries with a name and colours of 3 bytes."""
    def colour(c: Any) -> bool:
        return isinstance(c, list) and len(c) == 3 and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in c)

    entries = doc.get("palette") if isinstance(doc, dict) else None
    if not isinstance(entries, list) or not entries:
        raise PaletteError(f"{path}: no \"palette\" list of entries")
    for i, e in enumerate(entries):
        if not (isinstance(e, dict) and isinstance(e.get("name"), str) and colour(e.get("rgb"))
                and all(colour(e[v]) for v in VARIANTS if v in e)
                and all(isinstance(e.get(k, ""), str) for k in ("role", "meaning", "of"))):
            raise PaletteError(f"{path}: entry {i} is not {{\"name\": TEXT, \"rgb\": [R, G, B] (0-255)"
                               ", ...}}: " + json.dumps(e)[:60])


def check_variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise PaletteError(f"no palette {variant!r}: choose one of {', '.join(VARIANTS)}")
    return variant


def _rgb(entry: dict[str, Any], variant: str) -> RGB:
    c = entry.get(variant, entry["rgb"]) if variant != "standard" else entry["rgb"]
    return (c[0], c[1], c[2])


def colours(doc: dict[str, Any], variant: str = "standard") -> tuple[RGB, ...]:
    check_variant(variant)
    return tuple(_rgb(e, variant) for e in doc["palette"])


def legend(doc: dict[str, Any], variant: str = "standard") -> list[dict[str, Any]]:
    """Every entry a player may see lit (not 'off'), in board order: index, name, role, #rrggbb, meaning."""
    check_variant(variant)
    return [{"index": i, "name": e["name"], "role": e.get("role", ""),
             "hex": "#%02x%02x%02x" % _rgb(e, variant), "meaning": e.get("meaning", "")}
            for i, e in enumerate(doc["palette"]) if e.get("role") != "off"]
