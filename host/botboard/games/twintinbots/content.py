"""The game's content, read once from the JSON files in data/.

Tiles, crystals and step kinds become small ints so the rules engine works on
tuples of ints; the tables here translate both ways.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DATA = Path(__file__).resolve().parent / "data"


def load_json(name: str) -> Any:
    return json.loads((_DATA / name).read_text())


# step kinds, the atoms an order is made of
FWD, BACK, LEFT, RIGHT, LOAD, UNLOAD, ZAP, LONGZAP, JUMP = range(1, 10)
_STEP_CODES = {"fwd": FWD, "back": BACK, "left": LEFT, "right": RIGHT, "load": LOAD,
               "unload": UNLOAD, "zap": ZAP, "longzap": LONGZAP, "jump": JUMP}

_TILES = load_json("tiles.json")
_RULES = load_json("rules.json")
SETUPS: dict[str, Any] = load_json("setups.json")["setups"]

# tile codes: 0 is an empty slot, then the standard tiles, then the specials
TILE_CODES: tuple[str, ...] = ("-",) + tuple(t["code"] for t in _TILES["standard"]) + tuple(
    t["code"] for t in _TILES["specials"])
TILE_NAMES: tuple[str, ...] = ("empty",) + tuple(t["name"] for t in _TILES["standard"]) + tuple(
    t["name"] for t in _TILES["specials"])
TILE_BY_CODE: dict[str, int] = {code: i for i, code in enumerate(TILE_CODES)}
N_STANDARD = len(_TILES["standard"])
STANDARD: tuple[int, ...] = tuple(range(1, N_STANDARD + 1))
SPECIALS: tuple[int, ...] = tuple(range(N_STANDARD + 1, len(TILE_CODES)))
# how many of each standard tile a player owns (index by tile code)
TILE_COUNT: tuple[int, ...] = (0,) + tuple(t["count"] for t in _TILES["standard"]) + (1,) * len(
    SPECIALS)
STEPS: tuple[tuple[int, ...], ...] = ((),) + tuple(
    tuple(_STEP_CODES[s] for s in t["steps"]) for t in _TILES["standard"] + _TILES["specials"])
DM_NAME: str = _TILES["double_modification"]["name"]


def _passive(name: str) -> int:
    for i, t in enumerate(_TILES["specials"]):
        if t.get("passive") == name:
            return SPECIALS[i]
    raise KeyError(name)


ANTIZAP = _passive("antizap")
ANTITHEFT = _passive("antitheft")
BULLDOZER = _passive("bulldozer")
ZAP_ORDERS: tuple[int, ...] = tuple(TILE_BY_CODE[c] for c in _TILES["zap_orders"])
T_F1, T_L, T_R, T_LD, T_UL = ZAP_ORDERS

# crystals are named by their points: 2 blue, 3 green, 4 pink
CRYSTAL_POINTS: tuple[int, ...] = tuple(c["points"] for c in _RULES["crystals"])
CRYSTAL_COLOUR: dict[int, str] = {c["points"]: c["colour"] for c in _RULES["crystals"]}
CRYSTAL_LETTER: dict[int, str] = {c["points"]: c["letter"] for c in _RULES["crystals"]}
CRYSTAL_BY_NAME: dict[str, int] = {**{c["colour"]: c["points"] for c in _RULES["crystals"]},
                                   **{c["letter"]: c["points"] for c in _RULES["crystals"]}}
CRYSTAL_SUPPLY: tuple[int, ...] = tuple(c["points"] for c in _RULES["crystals"]
                                        for _ in range(c["count"]))
BLUE, GREEN, PINK = CRYSTAL_POINTS

COLOURS: tuple[str, ...] = tuple(_RULES["colours"])
COLOUR_LETTERS: tuple[str, ...] = tuple(_RULES["colour_letters"])
SCORE_VICTORY: dict[int, int] = {int(k): v for k, v in _RULES["score_victory"].items()}
COUNTDOWN: int = _RULES["countdown"]
TELEPORTER_COLOURS: tuple[str, ...] = tuple(_RULES["variants"]["teleporter_colours"])
VARIANT_MAX: dict[str, int] = dict(_RULES["variants"]["max"])
# piece kind -> kinds it may not stand next to, when placed at random
PLACEMENT_APART: dict[str, tuple[str, ...]] = {
    kind: tuple(rule["apart_from"]) for kind, rule in _RULES["variants"]["placement"].items()
    if kind != "comment"}
ARENA_RADIUS: dict[int, int] = {int(k): v for k, v in _RULES["arenas"].items() if k != "comment"}


def tile_code(text: str) -> int:
    """The tile numbered by its notation (``F2``, ``LZ``...); KeyError if unknown."""
    return TILE_BY_CODE[text.strip().upper()]
