"""New games: the setup for 2..6 players, shuffled track and specials, variant placement."""

from __future__ import annotations

import random
from typing import Any, Mapping

from ..base import GameError
from . import content as C
from .hexgrid import arena, parse_coord
from .state import BLOB, CRYSTAL0, State, make_layout

OPTIONS: dict[str, Any] = {
    "teleporters": 0,  # pairs, 0..3
    "rocks": 0,
    "blobs": 0,
    "mud": 0,
    "teams": False,  # team play (even number of players): no score victory
    "score_victory": True,  # False: the game only ends by attrition
    "track": None,  # crystals on the track at the start; None: all the others
}


def check_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Options merged over the defaults; GameError naming a bad one."""
    if not 2 <= players <= 6:
        raise GameError(f"Twin Tin Bots is for 2 to 6 players, not {players}")
    opts = dict(OPTIONS)
    for key, value in (options or {}).items():
        if key not in OPTIONS:
            raise GameError(f"unknown option {key!r}; options are {', '.join(OPTIONS)}")
        opts[key] = value
    for key, most in C.VARIANT_MAX.items():
        if not isinstance(opts[key], int) or isinstance(opts[key], bool) or not 0 <= opts[key] <= most:
            raise GameError(f"option {key!r} should be a number from 0 to {most}")
    if opts["teams"] and players % 2:
        raise GameError("team play needs an even number of players")
    if opts["track"] is not None and (not isinstance(opts["track"], int) or opts["track"] < 0):
        raise GameError("option 'track' should be a number of crystals (0 or more) or null")
    return opts


def score_target(players: int, opts: Mapping[str, Any]) -> int:
    return 0 if opts["teams"] or not opts["score_victory"] else C.SCORE_VICTORY[players]


def new_game(players: int, options: Mapping[str, Any] | None, seed: int) -> State:
    opts = check_options(players, options)
    rng = random.Random(seed)
    setup = C.SETUPS[str(players)]
    grid = arena(C.ARENA_RADIUS[players])
    bases = tuple(grid.cell(seat["base"]) for seat in setup["seats"])
    robots = [(grid.cell(r["at"]), r["facing"]) for seat in setup["seats"] for r in seat["robots"]]
    crystals = {grid.cell(c["at"]): C.CRYSTAL_BY_NAME[c["colour"]] for c in setup["crystals"]}

    supply = list(C.CRYSTAL_SUPPLY)
    for points_ in crystals.values():
        supply.remove(points_)
    rng.shuffle(supply)
    if opts["track"] is not None:
        supply = supply[:opts["track"]]
    specials = list(C.SPECIALS)
    rng.shuffle(specials)

    taken = set(bases) | {c for c, _ in robots} | set(crystals)
    variants = place_variants_retrying(grid.radius, bases, taken, opts, rng)
    layout = make_layout(grid.radius, players, bases, variants["rocks"], variants["teleporters"],
                         variants["mud"], bool(opts["teams"]), score_target(players, opts))
    occ = list(layout.static_occ)
    for rid, (cell, _) in enumerate(robots):
        occ[cell] = rid + 1
    for cell, points_ in crystals.items():
        occ[cell] = CRYSTAL0 + points_
    for cell in variants["blobs"]:
        occ[cell] = BLOB
    return State(
        layout=layout, occ=tuple(occ), cell=tuple(c for c, _ in robots),
        face=tuple(f for _, f in robots), load=(0,) * len(robots),
        programs=((0, 0, 0),) * len(robots),
        hands=tuple((specials[seat],) for seat in range(players)),
        dm_used=(False,) * players, delivered=((0, 0, 0),) * players,
        track=tuple(supply), deck=tuple(specials[players:]), player=0, turns=0,
        countdown=-1 if supply else C.COUNTDOWN, revealed=((),) * players)


def place_variants_retrying(radius: int, bases: tuple[int, ...], taken: set[int],
                            opts: Mapping[str, Any], rng: random.Random,
                            attempts: int = 50) -> dict[str, Any]:
    """Random placement can paint itself into a corner: try again a few times."""
    for _ in range(attempts - 1):
        try:
            return place_variants(radius, bases, taken, opts, rng)
        except GameError:
            continue
    return place_variants(radius, bases, taken, opts, rng)


def place_variants(radius: int, bases: tuple[int, ...], taken: set[int], opts: Mapping[str, Any],
                   rng: random.Random) -> dict[str, Any]:
    """Teleporters, rocks, blobs, then mud, on random hexes allowed by the setup rules.

    No piece goes on the outer ring, on the centre (where crystals enter) or on a
    taken hex; each kind also keeps away from the hexes next to the kinds listed
    in data/rules.json (teleporters, rocks and blobs: bases and each other).
    """
    grid = arena(radius)
    placed: dict[str, list[int]] = {"base": list(bases), "teleporter": [], "rock": [], "blob": [],
                                    "mud": []}
    inner = [c for c in range(grid.size) if grid.ring[c] < radius and c != grid.centre]

    def pick(kind: str, option: str) -> int:
        used = set(taken).union(*placed.values())
        near = {n for other in C.PLACEMENT_APART[option] for c in placed[other] for n in grid.nbr[c]}
        free = [c for c in inner if c not in used and c not in near]
        if not free:
            raise GameError(f"no room left on the arena for a {kind}; ask for fewer variant pieces")
        cell = rng.choice(free)
        placed[kind].append(cell)
        return cell

    teleporters = tuple((pick("teleporter", "teleporters"), pick("teleporter", "teleporters"))
                        for _ in range(opts["teleporters"]))
    rocks = tuple(pick("rock", "rocks") for _ in range(opts["rocks"]))
    blobs = tuple(pick("blob", "blobs") for _ in range(opts["blobs"]))
    mud = tuple(pick("mud", "mud") for _ in range(opts["mud"]))
    return {"teleporters": teleporters, "rocks": rocks, "blobs": blobs, "mud": mud}


def setup_cells(players: int) -> dict[str, Any]:
    """The setup of the data file with coordinates, for docs and tests."""
    setup = C.SETUPS[str(players)]
    return {"arena": C.ARENA_RADIUS[players],
            "bases": [parse_coord(s["base"]) for s in setup["seats"]],
            "robots": [(parse_coord(r["at"]), r["facing"]) for s in setup["seats"]
                       for r in s["robots"]],
            "crystals": [(parse_coord(c["at"]), c["colour"]) for c in setup["crystals"]]}
