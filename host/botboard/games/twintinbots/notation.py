"""Positions as JSON documents and as one line of text (in the spirit of chess FEN).

Both forms describe the same parts ("components") of a state, so one builder
turns either into a ``State``. A document may be partial: the parts it leaves
out come from a base state (a new game of the same size), which is how
scenario files give a short position. See docs/scenarios-twin-tin-bots.md.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from ..base import GameError, InvalidNotation, ScenarioError
from . import content as C
from .hexgrid import Arena, arena, parse_facing
from .state import (BLOB, CRYSTAL0, END_ATTRITION, END_SCORE, State, make_layout, points)

_END_NAMES = {END_SCORE: "score victory", END_ATTRITION: "crystal attrition"}
_PENDING_NAMES = {1: "zap", 2: "blob", 3: "entry"}


def seat_name(seat: int) -> str:
    return C.COLOURS[seat]


def robot_key(rid: int) -> str:
    return f"{C.COLOURS[rid // 2]}{'AB'[rid % 2]}"


# -- state -> document -----------------------------------------------------------
def _hand(state: State, seat: int, viewer: int | None) -> list[str]:
    """A seat's hand as ``viewer`` sees it: the tiles seen placed, then one "?" for each other
    (where a hidden tile would sort among the seen ones would tell what it is)."""
    hand = [C.TILE_CODES[t] for t in state.hands[seat]]
    if viewer is None or viewer == seat:
        return hand
    seen = sorted((Counter(state.hands[seat]) & Counter(state.revealed[seat])).elements())
    return [C.TILE_CODES[t] for t in seen] + ["?"] * (len(hand) - len(seen))


def to_doc(state: State, viewer: int | None = None, full: bool = False) -> dict[str, Any]:
    """The JSON view. ``viewer`` hides other seats' hands; ``full`` adds what nobody sees."""
    layout = state.layout
    grid = layout.arena
    n = layout.players
    names = grid.names
    doc: dict[str, Any] = {
        "players": n, "arena": layout.radius, "teams": layout.teams,
        "score_victory": layout.score_target,
        "turn": seat_name(state.player), "turns": state.turns,
        "countdown": state.countdown if state.countdown >= 0 else None,
        "bases": {seat_name(s): names[c] for s, c in enumerate(layout.bases)},
        "robots": {robot_key(r): {"at": names[state.cell[r]], "facing": state.face[r],
                                  "carry": C.CRYSTAL_COLOUR.get(state.load[r])}
                   for r in range(2 * n)},
        "crystals": {names[c]: C.CRYSTAL_COLOUR[o - CRYSTAL0]
                     for c, o in enumerate(state.occ) if CRYSTAL0 < o < BLOB},
        "programs": {robot_key(r): [C.TILE_CODES[t] for t in state.programs[r]]
                     for r in range(2 * n)},
        "hands": {seat_name(s): _hand(state, s, viewer) for s in range(n)},
        "revealed": {seat_name(s): [C.TILE_CODES[t] for t in state.revealed[s]] for s in range(n)},
        "dm_used": {seat_name(s): state.dm_used[s] for s in range(n)},
        "delivered": {seat_name(s): dict(zip(("blue", "green", "pink"), state.delivered[s]))
                      for s in range(n)},
        "scores": {seat_name(s): points(state.delivered[s]) for s in range(n)},
        "track": [C.CRYSTAL_COLOUR[p] for p in state.track],
        "deck": [C.TILE_CODES[t] for t in state.deck] if full else len(state.deck),
        "rocks": sorted(names[c] for c in layout.rocks),
        "blobs": sorted(names[c] for c, o in enumerate(state.occ) if o == BLOB),
        "mud": sorted(names[c] for c in layout.mud),
        "teleporters": {C.TELEPORTER_COLOURS[i]: [names[a], names[b]]
                        for i, (a, b) in enumerate(layout.teleporters)},
        "result": None if state.result is None else {
            "reason": _END_NAMES[state.result[0]],
            "winners": [seat_name(s) for s in state.result[1]]},
    }
    if full or state.pending:
        doc["exec"] = None if state.pending is None else {
            "pending": [_PENDING_NAMES[state.pending[0]], seat_name(state.pending[1]),
                        _detail_to_json(state, state.pending)],
            "pc": list(state.pc or (0, 0, 0)), "stuck": state.stuck}
    return doc


def _detail_to_json(state: State, pending: tuple[int, ...]) -> Any:
    kind, _, detail = pending
    if kind == 1:
        return robot_key(detail)
    if kind == 2:
        return state.layout.arena.names[detail]
    return C.CRYSTAL_COLOUR[detail]


# -- document -> state --------------------------------------------------------------
# fields a full document (or the text form) may leave out
_OPTIONAL: dict[str, Any] = {"rocks": [], "blobs": [], "mud": [], "teleporters": {}, "revealed": {},
                             "teams": False, "score_victory": True, "countdown": None}


class _Reader:
    """Parses the fields of a position document, naming the field on every error."""

    def __init__(self, doc: Mapping[str, Any], base: State | None, where: str) -> None:
        self.doc, self.base, self.where = doc, base, where
        self.base_doc = to_doc(base, full=True) if base is not None else dict(_OPTIONAL)

    def fail(self, key: str, problem: str) -> ScenarioError:
        return ScenarioError(f"{self.where}{key}: {problem}")

    def get(self, key: str) -> Any:
        if key in self.doc:
            return self.doc[key]
        if key not in self.base_doc:
            raise self.fail(key, "missing")
        return self.base_doc[key]

    def seat(self, key: str, name: str, players: int) -> int:
        if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < players:
            return name
        if isinstance(name, str) and name.lower() in C.COLOURS[:players]:
            return C.COLOURS.index(name.lower())
        raise self.fail(key, f"{name!r} is not a player; players are "
                             f"{', '.join(C.COLOURS[:players])}")

    def cell(self, key: str, text: Any, grid: Arena) -> int:
        if isinstance(text, list) and len(text) == 2:
            text = f"{text[0]},{text[1]}"
        if not isinstance(text, str):
            raise self.fail(key, f"expected a hex as \"q,r\", got {text!r}")
        try:
            return grid.cell(text)
        except InvalidNotation as err:
            raise self.fail(key, str(err)) from err

    def count(self, key: str, value: Any, most: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
            raise self.fail(key, f"expected a whole number from 0 to {most}, got {value!r}")
        return value

    def crystal(self, key: str, name: Any) -> int:
        if isinstance(name, str) and name.lower() in C.CRYSTAL_BY_NAME:
            return C.CRYSTAL_BY_NAME[name.lower()]
        raise self.fail(key, f"{name!r} is not a crystal colour (blue, green, pink)")

    def tile(self, key: str, code: Any) -> int:
        if code is None:
            return 0
        if isinstance(code, str) and code.strip().upper() in C.TILE_BY_CODE:
            return C.TILE_BY_CODE[code.strip().upper()]
        raise self.fail(key, f"{code!r} is not a tile; tiles are {', '.join(C.TILE_CODES)}")

    def mapping(self, key: str, merge: bool = True) -> Mapping[str, Any]:
        """An object field; per-player fields given in part keep the base's other entries."""
        value = self.get(key)
        if not isinstance(value, Mapping):
            raise self.fail(key, "expected an object")
        base = self.base_doc.get(key)
        if merge and key in self.doc and isinstance(base, Mapping):
            return {**base, **value}
        return value

    def listing(self, key: str) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list):
            raise self.fail(key, "expected a list")
        return value


def from_doc(doc: Mapping[str, Any], base: State | None = None, where: str = "") -> State:
    """Build a state from a (partial, when ``base`` is given) position document."""
    if not isinstance(doc, Mapping):
        raise ScenarioError(f"{where.rstrip('.') or 'position'}: expected an object")
    known = {"players", "arena", "teams", "score_victory", "turn", "turns", "countdown", "bases",
              "robots", "crystals", "programs", "hands", "dm_used", "delivered", "scores", "track",
              "deck", "rocks", "blobs", "mud", "teleporters", "result", "exec", "position",
              "revealed", "final_scores"}
    unknown = set(doc) - known
    if unknown:
        raise ScenarioError(f"{where}{sorted(unknown)[0]}: unknown field; position fields are "
                            f"{', '.join(sorted(known - {'position'}))}")
    rd = _Reader(doc, base, where)
    players = rd.get("players")
    if not isinstance(players, int) or not 2 <= players <= 6:
        raise rd.fail("players", "expected a number from 2 to 6")
    radius = rd.get("arena")
    if radius not in (4, 5):
        raise rd.fail("arena", "expected 4 (small arena) or 5 (big arena)")
    grid = arena(radius)
    seats = range(players)
    bases_doc = rd.mapping("bases")
    bases = []
    for s in seats:
        if seat_name(s) not in bases_doc:
            raise rd.fail("bases", f"no base for {seat_name(s)}")
        bases.append(rd.cell(f"bases.{seat_name(s)}", bases_doc[seat_name(s)], grid))
    rocks = tuple(rd.cell("rocks", c, grid) for c in rd.listing("rocks"))
    mud = tuple(rd.cell("mud", c, grid) for c in rd.listing("mud"))
    tele_doc = rd.mapping("teleporters", merge=False)
    teleporters = []
    for colour in C.TELEPORTER_COLOURS:
        if colour in tele_doc:
            pair = tele_doc[colour]
            if not isinstance(pair, list) or len(pair) != 2:
                raise rd.fail(f"teleporters.{colour}", "expected a pair of hexes")
            teleporters.append((rd.cell(f"teleporters.{colour}", pair[0], grid),
                                rd.cell(f"teleporters.{colour}", pair[1], grid)))
    teams = bool(rd.get("teams"))
    target = rd.get("score_victory")
    if target is True:
        target = 0 if teams else C.SCORE_VICTORY[players]
    if not isinstance(target, int):
        raise rd.fail("score_victory", "expected points to reach (0 for none) or true/false")
    layout = make_layout(radius, players, tuple(bases), rocks, tuple(teleporters), mud, teams,
                         int(target))

    occ = list(layout.static_occ)
    owner: dict[int, str] = {c: "a base, rock or teleporter" for c, o in enumerate(occ) if o}

    def put(key: str, cell: int, thing: int) -> None:
        if occ[cell]:
            raise rd.fail(key, f"hex {grid.names[cell]} is already taken by {owner[cell]}")
        occ[cell] = thing
        owner[cell] = key

    robots_doc = rd.mapping("robots")
    base_robots = rd.base_doc.get("robots", {})
    cells, faces, loads = [], [], []
    for rid in range(2 * players):
        key = robot_key(rid)
        spec = robots_doc.get(key, base_robots.get(key))
        if not isinstance(spec, Mapping) or "at" not in spec:
            raise rd.fail(f"robots.{key}", "expected {\"at\": \"q,r\", \"facing\": 0..5}")
        cell = rd.cell(f"robots.{key}.at", spec["at"], grid)
        put(f"robots.{key}", cell, rid + 1)
        try:
            facing = parse_facing(str(spec.get("facing", 0)))
        except InvalidNotation as err:
            raise rd.fail(f"robots.{key}.facing", str(err)) from err
        carry = spec.get("carry")
        cells.append(cell)
        faces.append(facing)
        loads.append(0 if carry is None else rd.crystal(f"robots.{key}.carry", carry))
    for text, colour in rd.mapping("crystals", merge=False).items():
        put(f"crystals.{text}", rd.cell("crystals", text, grid),
            CRYSTAL0 + rd.crystal(f"crystals.{text}", colour))
    for text in rd.listing("blobs"):
        put("blobs", rd.cell("blobs", text, grid), BLOB)

    progs_doc = rd.mapping("programs")
    base_progs = rd.base_doc.get("programs", {})
    programs = []
    for rid in range(2 * players):
        key = robot_key(rid)
        slots = progs_doc.get(key, base_progs.get(key, [None] * 3))
        if not isinstance(slots, list) or len(slots) != 3:
            raise rd.fail(f"programs.{key}", "expected three slots, like [\"F1\", \"-\", \"L\"]")
        tiles = [rd.tile(f"programs.{key}", t) for t in slots]
        programs.append((tiles[0], tiles[1], tiles[2]))
    hands_doc = rd.mapping("hands")
    hands = []
    for s in seats:
        tiles = hands_doc.get(seat_name(s), [])
        if not isinstance(tiles, list):
            raise rd.fail(f"hands.{seat_name(s)}", "expected a list of special tiles")
        hands.append(tuple(sorted(rd.tile(f"hands.{seat_name(s)}", t) for t in tiles)))
    dm_doc = rd.mapping("dm_used")
    dm_used = tuple(bool(dm_doc.get(seat_name(s), False)) for s in seats)
    del_doc = rd.mapping("delivered")
    delivered = []
    for s in seats:
        counts = del_doc.get(seat_name(s), {})
        if not isinstance(counts, Mapping):
            raise rd.fail(f"delivered.{seat_name(s)}", "expected {\"blue\": n, \"green\": n, \"pink\": n}")
        blue, green, pink = (rd.count(f"delivered.{seat_name(s)}.{colour}", counts.get(colour, 0),
                                      C.CRYSTAL_SUPPLY.count(C.CRYSTAL_BY_NAME[colour]))
                             for colour in ("blue", "green", "pink"))
        delivered.append((blue, green, pink))
    track = tuple(rd.crystal("track", c) for c in rd.listing("track"))
    deck_value = rd.get("deck")
    if isinstance(deck_value, int):
        deck = base.deck[:deck_value] if base else ()
    else:
        deck = tuple(rd.tile("deck", t) for t in rd.listing("deck"))
    player = rd.seat("turn", rd.get("turn"), players)
    turns = rd.get("turns")
    if not isinstance(turns, int) or turns < 0:
        raise rd.fail("turns", "expected the number of player turns played so far")
    countdown = rd.get("countdown")
    countdown = -1 if countdown is None else rd.count("countdown", countdown, C.COUNTDOWN)
    pending, pc, stuck = _read_exec(rd, grid, players)
    result = _read_result(rd, players)
    placed = {t for prog in programs for t in prog if t in C.SPECIALS}
    if "hands" not in rd.doc:  # specials put in programs by a partial position leave the hands
        hands = [tuple(t for t in hand if t not in placed) for hand in hands]
    if "deck" not in rd.doc:
        held = placed.union(*hands)
        deck = tuple(t for t in deck if t not in held)
    _check_tiles(rd, programs, hands, players)
    shown = rd.mapping("revealed")
    revealed = tuple(tuple(sorted({rd.tile("revealed", t) for t in shown.get(seat_name(s), [])}
                                  | {t for t in programs[2 * s] + programs[2 * s + 1]
                                     if t in C.SPECIALS}))
                     for s in seats)
    return State(layout, tuple(occ), tuple(cells), tuple(faces), tuple(loads), tuple(programs),
                 tuple(hands), dm_used, tuple(delivered), track, deck, player, turns, countdown,
                 pending, pc, stuck, result, revealed)


def _read_exec(rd: _Reader, grid: Arena, players: int) -> tuple[Any, Any, int]:
    spec = rd.doc.get("exec")
    if spec is None:
        return None, None, 0
    try:
        kind_name, decider, detail = spec["pending"]
        kind = {v: k for k, v in _PENDING_NAMES.items()}[kind_name]
        seat = rd.seat("exec.pending", decider, players)
        if kind == 1:
            keys = [robot_key(r) for r in range(2 * players)]
            value = keys.index(detail)
        elif kind == 2:
            value = rd.cell("exec.pending", detail, grid)
        else:
            value = rd.crystal("exec.pending", detail)
        pc = tuple(int(x) for x in spec["pc"])
        return (kind, seat, value), pc, int(spec.get("stuck", 0))
    except (KeyError, ValueError, TypeError) as err:
        if isinstance(err, GameError):
            raise
        raise rd.fail("exec", "expected {\"pending\": [kind, player, detail], \"pc\": [k, s, m]}") from err


def _read_result(rd: _Reader, players: int) -> Any:
    spec = rd.doc.get("result")
    if spec is None:
        return None
    reasons = {v: k for k, v in _END_NAMES.items()}
    if not isinstance(spec, Mapping) or spec.get("reason") not in reasons:
        raise rd.fail("result", f"expected {{\"reason\": one of {list(reasons)}, \"winners\": [...]}}")
    return (reasons[spec["reason"]], tuple(rd.seat("result.winners", w, players)
                                           for w in spec.get("winners", [])))


def _check_tiles(rd: _Reader, programs: list[tuple[int, int, int]],
                 hands: list[tuple[int, ...]], players: int) -> None:
    """A seat cannot place more tiles of a kind than it owns."""
    for s in range(players):
        placed = programs[2 * s] + programs[2 * s + 1]
        for tile in set(placed) - {0}:
            owned = C.TILE_COUNT[tile] if tile in C.STANDARD else 1
            if placed.count(tile) > owned or (tile in C.SPECIALS and tile in hands[s]):
                raise rd.fail(f"programs.{seat_name(s)}",
                              f"more {C.TILE_CODES[tile]} tiles than {seat_name(s)} owns")


# -- the one-line text form -------------------------------------------------------------
# fields in output order: key=value, lists joined by ';'
def to_fen(state: State) -> str:
    doc = to_doc(state, full=True)
    n = state.layout.players
    seats = [seat_name(s) for s in range(n)]
    robots = [robot_key(r) for r in range(2 * n)]

    def robot(key: str) -> str:
        spec = doc["robots"][key]
        carry = spec["carry"]
        return f"{spec['at']}:{spec['facing']}" + (f"+{carry[0]}" if carry else "")

    parts = [
        f"players={n}", f"arena={doc['arena']}", f"turn={doc['turn']}", f"turns={doc['turns']}",
        "robots=" + ";".join(robot(k) for k in robots),
        "crystals=" + ";".join(f"{c}:{col[0]}" for c, col in sorted(doc["crystals"].items())),
        "programs=" + ";".join(".".join(doc["programs"][k]) for k in robots),
        "hands=" + ";".join(".".join(doc["hands"][s]) for s in seats),
        "delivered=" + ";".join(".".join(str(doc["delivered"][s][c])
                                         for c in ("blue", "green", "pink")) for s in seats),
        "track=" + "".join(c[0] for c in doc["track"]),
        "deck=" + ".".join(doc["deck"]),
        "dm=" + "".join("1" if doc["dm_used"][s] else "0" for s in seats),
        "bases=" + ";".join(doc["bases"][s] for s in seats),
    ]
    if any(doc["revealed"].values()):
        parts.append("revealed=" + ";".join(".".join(doc["revealed"][s]) for s in seats))
    if doc["countdown"] is not None:
        parts.append(f"countdown={doc['countdown']}")
    if doc["teams"]:
        parts.append("teams=1")
    if state.layout.score_target != (0 if doc["teams"] else C.SCORE_VICTORY[n]):
        parts.append(f"victory={state.layout.score_target}")
    for key in ("rocks", "blobs", "mud"):
        if doc[key]:
            parts.append(f"{key}=" + ";".join(doc[key]))
    if doc["teleporters"]:
        parts.append("teleporters=" + ";".join(f"{a}:{b}"
                                               for a, b in doc["teleporters"].values()))
    if doc.get("exec"):
        ex = doc["exec"]
        parts.append("exec=" + ":".join(ex["pending"]) + "@" + ".".join(map(str, ex["pc"]))
                     + f"/{ex['stuck']}")
    if doc["result"]:
        parts.append(f"result={doc['result']['reason'].replace(' ', '-')}:"
                     + ".".join(doc["result"]["winners"]))
    return " ".join(parts)


def fen_to_doc(text: str) -> dict[str, Any]:
    """Parse the text form into a (partial) position document."""
    fields: dict[str, str] = {}
    for token in text.split():
        if "=" not in token:
            raise InvalidNotation(f"position: {token!r} should be key=value")
        key, value = token.split("=", 1)
        fields[key] = value
    doc: dict[str, Any] = {}
    try:
        for key, value in fields.items():
            doc.update(_fen_field(key, value, fields))
    except (ValueError, IndexError) as err:
        if isinstance(err, GameError):
            raise
        raise InvalidNotation(f"position: cannot read {key}={value}: {err}") from err
    return doc


def _split(value: str, sep: str = ";") -> list[str]:
    return [] if value == "" else value.split(sep)


def _fen_field(key: str, value: str, fields: Mapping[str, str]) -> dict[str, Any]:
    players = int(fields.get("players", "2"))
    seats = [seat_name(s) for s in range(players)]
    robots = [robot_key(r) for r in range(2 * players)]
    if key in ("players", "arena", "turns", "countdown"):
        return {key: int(value)}
    if key == "turn":
        return {"turn": value}
    if key == "robots":
        out = {}
        for name, item in zip(robots, _split(value), strict=True):
            head, _, carry = item.partition("+")
            at, facing = head.rsplit(":", 1)
            out[name] = {"at": at, "facing": facing, "carry": carry or None}
        return {"robots": out}
    if key == "crystals":
        return {"crystals": {at: colour for at, colour in
                             (item.rsplit(":", 1) for item in _split(value))}}
    if key == "programs":
        return {"programs": {name: item.split(".") for name, item in
                             zip(robots, _split(value), strict=True)}}
    if key == "hands":
        return {"hands": {s: _split(item, ".") for s, item in zip(seats, _split(value), strict=True)}}
    if key == "delivered":
        return {"delivered": {s: dict(zip(("blue", "green", "pink"), map(int, item.split("."))))
                              for s, item in zip(seats, _split(value), strict=True)}}
    if key == "track":
        return {"track": list(value)}
    if key == "deck":
        return {"deck": _split(value, ".")}
    if key == "revealed":
        return {"revealed": {s: _split(item, ".") for s, item in zip(seats, _split(value),
                                                                    strict=True)}}
    if key == "dm":
        return {"dm_used": {s: flag == "1" for s, flag in zip(seats, value, strict=True)}}
    if key == "bases":
        return {"bases": dict(zip(seats, _split(value), strict=True))}
    if key == "teams":
        return {"teams": value == "1"}
    if key == "victory":
        return {"score_victory": int(value)}
    if key in ("rocks", "blobs", "mud"):
        return {key: _split(value)}
    if key == "teleporters":
        return {"teleporters": {colour: pair.split(":") for colour, pair in
                                zip(C.TELEPORTER_COLOURS, _split(value))}}
    if key == "exec":
        head, _, rest = value.partition("@")
        pc, _, stuck = rest.partition("/")
        kind, decider, detail = head.split(":")
        return {"exec": {"pending": [kind, decider, detail], "pc": [int(x) for x in pc.split(".")],
                         "stuck": int(stuck or 0)}}
    if key == "result":
        reason, _, winners = value.partition(":")
        return {"result": {"reason": reason.replace("-", " "), "winners": _split(winners, ".")}}
    raise InvalidNotation(f"position: unknown field {key!r}")


# -- programs on their own (logs, console, the game session) ---------------------------------
def program_to_str(programs: tuple[tuple[int, int, int], tuple[int, int, int]]) -> str:
    """A seat's two programs: ``A: F1 - L | B: R R -``."""
    return " | ".join(f"{'AB'[k]}: " + " ".join(C.TILE_CODES[t] for t in prog)
                      for k, prog in enumerate(programs))


def program_from_str(text: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """Inverse of ``program_to_str``; the ``A:``/``B:`` labels may be left out."""
    halves = text.split("|")
    if len(halves) != 2:
        raise InvalidNotation(f"{text!r}: write the two programs as 'A: F1 - L | B: R R -'")
    out = []
    for k, half in enumerate(halves):
        words = half.replace(":", " ").split()
        if words and words[0].upper() == "AB"[k]:
            words = words[1:]
        if len(words) != 3 or any(w.upper() not in C.TILE_BY_CODE for w in words):
            raise InvalidNotation(f"{half.strip()!r}: three slots, each a tile code or -")
        tiles = [C.TILE_BY_CODE[w.upper()] for w in words]
        out.append((tiles[0], tiles[1], tiles[2]))
    return out[0], out[1]
