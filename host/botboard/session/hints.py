"""Hints: a seat asks its phone what the computer would play, on that seat's own information.

    hint = work_out(mapping, state, seat, players.make("search", 1, 2.0), held)
    hint.words     # "move F2 from B2 to B3, put L in A1, then press confirm" / "choose 2,-1"
    hint.steps     # the same, one Step at a time (take, put, move, set, confirm, choose)

The search player (botboard.players) gets the seat's ``Situation``: it never
reads the true state, only samples of it dealt again where the seat cannot
see (``Game.determinize``), so a hint tells nothing a player could not know.
For a program, the table proposes a few programs a player could lay with the
tiles it has (the mapping's ``random_program``, judged as a confirm would be)
and the search picks among them. The answer is then said as the table would ask
for the move: worded from the difference between what the slots hold now and
what they hold after it (move, take out, put in), the phone's fields by their
labels, and how many confirms it takes; never an engine string. A pending decision is answered with the choice's words.

``TableHints`` is the table's side, a part of ``GameSession``: who may ask and
when, thinking in a worker process as computer seats do (thinking.py), the
answer told to the asking seat alone, its slots' robots lit in its colour for
a moment, and the hint journaled as a hint (``Journal.add_hint``), never as a
move.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Any

from bbshared import messages as m

from ..link.image import CellState
from ..games.base import GameError
from ..players import Player, Situation, make
from .mapping import TableMapping
from .thinking import ThinkingPool

log = logging.getLogger("botboard.session")
PROGRAMS = 48  # programs proposed to the search: enough to hold the good ones, quick to judge
SHOW_S = 6.0  # the hint's marks stay lit this long
LATE_S = 1.0  # past its budget by this much, a hint is late: the seat is told why (a busy machine)
# the budget is the seat's wait, from its ask to the answer: starting the worker and proposing
# programs come out of it, and the search thinks for what is left, less the answer's way back;
# but never less than this share of it (a starved worker's hint comes late, and says so)
LEAST_SHARE = 0.25
ANSWER_S = 0.2


class HintError(ValueError):
    """A hint that cannot be given now; the message says why, for the asking seat."""


@dataclass(frozen=True)
class Step:
    """One thing the seat does, as the table asks for it: ``do`` is "take" (``tile`` out of
    ``source``), "put" (``tile`` in ``target``), "move" (``tile`` from ``source`` to ``target``),
    "set" (the phone's field labelled ``label`` to ``value``), "confirm" (``times`` presses) or "choose"."""

    do: str
    tile: str = ""
    source: str = ""
    target: str = ""
    label: str = ""
    value: str = ""
    times: int = 1

    def words(self) -> str:
        if self.do == "take":
            return f"take {self.tile} out of {slot_words(self.source)}"
        if self.do == "put":
            return f"put {self.tile} in {slot_words(self.target)}"
        if self.do == "move":
            return f"move {self.tile} from {slot_words(self.source)} to {slot_words(self.target)}"
        if self.do == "set":
            return f"set {self.label} to {self.value}"
        if self.do == "confirm":
            return "press confirm" + ("" if self.times == 1 else " twice" if self.times == 2
                                      else f" {self.times} times")
        return f"choose {self.value}"

    def to_json(self) -> dict[str, Any]:
        return {**{k: v for k, v in vars(self).items() if v != ""}, "words": self.words()}


@dataclass(frozen=True)
class Hint:
    seat: int
    action: str  # the engine's notation (journaled; the phone shows ``words``)
    words: str
    places: list[dict[str, str]] = field(default_factory=list)  # {"slot", "tile"}: what changes where
    positions: tuple[int, ...] = ()  # station positions that change
    steps: tuple[Step, ...] = ()  # what ``words`` says, one step at a time

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "words": self.words, "places": self.places,
                "steps": [s.to_json() for s in self.steps]}


def work_out(mapping: TableMapping[Any], state: Any, seat: int, player: Player,
             held: list[Any] | None = None, current: dict[str, Any] | None = None,
             deadline: float | None = None) -> Hint:
    """The hint for ``seat`` now (``held``: what its station holds, per position; ``current``:
    its phone's settings as they stand; ``deadline``: when the seat should have it, on
    ``time.monotonic``'s clock, one for every process of a machine)."""
    engine = mapping.engine
    situation = Situation.of(engine, state, seat)
    decision = mapping.decision(state)
    choose = lambda s: _think(player, s, deadline)  # noqa: E731
    if decision is not None:
        text = str(choose(situation).action)  # the player answers in notation
        # the choice as the decider's phone labels its button
        words = {c.choice: c.words for c in mapping.candidates(state, decision)}.get(text, text)
        step = Step("choose", value=words)
        return Hint(seat, text, step.words(), steps=(step,))
    programs = _programs(mapping, state, seat)
    offered = _offered(engine, state, situation, programs)
    if not offered:  # no program the tiles can say: the engine's words, without places
        text = str(choose(situation).action)
        return Hint(seat, text, f"play {mapping.public_action(state, text)}")
    text = str(choose(Situation(engine, seat, offered, state)).action)
    tiles, settings, confirms = programs[text]
    have = list(held) if held is not None else [None] * len(tiles)
    have += [None] * (len(tiles) - len(have))
    moves = changes(mapping, state, have, tiles)
    sets = [Step("set", label=label, value=str(value))
            for label, value in _fields(mapping, state, seat, settings, current or {})]
    steps = (*moves, *sets, Step("confirm", times=confirms))
    done = ", ".join(s.words() for s in steps[:-1])
    words = f"{done}, then {steps[-1].words()}" if done else f"your tiles are right: {steps[-1].words()}"
    positions = tuple(sorted({p for p, (a, b) in enumerate(zip(have, tiles)) if tile_key(mapping, a) != tile_key(mapping, b)}))
    places = [{"slot": s.target or s.source, "tile": s.words()} for s in moves]
    return Hint(seat, text, words, places, positions, steps)


def _think(player: Player, situation: Situation, deadline: float | None) -> Any:
    """The player's choice, its thinking cut to what is left before ``deadline``."""
    if deadline is not None:
        full = player.budget_s
        player.budget_s = max(full * LEAST_SHARE, deadline - time.monotonic() - ANSWER_S)
        try:
            return player.choose(situation)
        finally:
            player.budget_s = full
    return player.choose(situation)


def _offered(engine: Any, state: Any, situation: Situation, programs: dict[str, Any]) -> list[Any]:
    """The engine's actions of the proposed programs, read from their notation: a seat's legal
    set may hold hundreds of thousands of programs (VOLT: 248,832), and walking it to find 48 of
    them took longer than the search itself."""
    offered = []
    for text in programs:
        try:
            action = engine.action_from_str(state, text)
        except GameError:  # judged legal at the table yet not by the engine: not offered
            continue
        if situation.notation(action) == text:
            offered.append(action)
    return offered


def changes(mapping: TableMapping[Any], state: Any, have: list[Any], want: list[Any]) -> list[Step]:
    """What turns the slots' ``have`` into ``want`` (per position), as a person does it: a tile
    that is wanted elsewhere moves there, one no longer wanted comes out, a missing one goes in.
    Tiles are the same when the game counts them the same (``TableMapping.tile_key``)."""
    name = [mapping.slot_name(state, p) for p in range(len(want))]
    differ = [p for p in range(len(want)) if tile_key(mapping, have[p]) != tile_key(mapping, want[p])]
    sources = [p for p in differ if have[p] is not None]  # tiles to lift
    moves: list[Step] = []
    puts: list[Step] = []
    for p in [p for p in differ if want[p] is not None]:
        q = next((q for q in sources if tile_key(mapping, have[q]) == tile_key(mapping, want[p])), None)
        if q is None:
            puts.append(Step("put", tile_said(mapping, want[p]) or "", target=name[p]))
        else:  # (said as the tile in the slot reads: the one that moves)
            sources.remove(q)
            moves.append(Step("move", tile_said(mapping, have[q]) or "", source=name[q], target=name[p]))
    takes = [Step("take", tile_said(mapping, have[q]) or "", source=name[q]) for q in sources]
    return [*takes, *moves, *puts]


def tile_key(mapping: TableMapping[Any], tile: Any) -> Any:
    """What tells a tile from another for the game (None: an empty slot)."""
    if tile is None or isinstance(tile, Exception):
        return tile_said(mapping, tile)
    return mapping.tile_key(tile)


def tile_said(mapping: TableMapping[Any], tile: Any) -> str | None:
    """A tile as its owner reads it (None: an empty slot); a tag that cannot count says so."""
    if tile is None:
        return None
    if isinstance(tile, Exception):
        return "the tag that cannot count"
    return mapping.tile_words(tile)


def _fields(mapping: TableMapping[Any], state: Any, seat: int, settings: dict[str, Any],
            current: dict[str, Any]) -> list[tuple[str, Any]]:
    """The program's settings the phone does not show yet, by the labels of its fields, in
    the phone's order."""
    now = {c["name"]: c["value"] for c in mapping.controls(state, seat, dict(current))}
    shown = mapping.controls(state, seat, settings)
    return [(c["label"], settings[c["name"]]) for c in shown
            if c["name"] in settings and str(now.get(c["name"])) != str(settings[c["name"]])]


def slot_words(name: str) -> str:
    """A slot as the board labels it: "slot 2", but "B3" and "register 2" as they are."""
    return f"slot {name}" if name.isdigit() else name


def _programs(mapping: TableMapping[Any], state: Any,
              seat: int) -> dict[str, tuple[list[Any], dict[str, Any], int]]:
    """Programs the seat's tiles can lay, by the action a confirm would read from them:
    (tiles per position, the phone's settings, confirms it takes)."""
    slots = list(range(mapping.slots_per_seat()))
    found: dict[str, tuple[list[Any], dict[str, Any], int]] = {}
    for k in range(PROGRAMS):  # a fixed series: the same state gives the same proposals
        settings: dict[str, Any] = {}
        tiles = mapping.random_program(state, seat, random.Random(k), settings)
        verdict = mapping.judge(state, seat, mapping.read_station(state, seat, tiles, slots), slots, settings)
        if verdict.ok and verdict.action not in found:
            found[str(verdict.action)] = (tiles, settings, 2 if verdict.second_confirm else 1)
    return found


class TableHints:
    """The table's hints: allowed or not, one at a time per seat, told to that seat alone."""

    def __init__(self, session: Any, allowed: bool = True, budget_s: float = 2.0,
                 iterations: int | None = None) -> None:
        self.session = session
        self.allowed, self.budget_s, self.iterations = allowed, budget_s, iterations
        self.thinking: set[int] = set()
        self.given: dict[int, tuple[Any, Hint, float]] = {}  # seat -> (state, hint, lit until)
        self._pool: ThinkingPool | None = None  # a worker process, started by the first hint

    def ask(self, seat: int) -> str:
        """Start working out ``seat``'s hint; what the seat is told now (HintError: why not)."""
        s = self.session
        self._check(seat)
        state, player = s.state, make("search", seed=seat + 1, budget_s=self.budget_s,
                                      iterations=self.iterations)
        held, current = s._tiles(seat), dict(s.controls.get(seat, {}))
        self.thinking.add(seat)
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop (tests): answer at once
            self._give(seat, state, work_out(s.mapping, state, seat, player, held, current))
            return "here is your hint"
        if self._pool is None:
            self._pool = ThinkingPool(1)
        deadline = time.monotonic() + self.budget_s
        future = self._pool.run(work_out, s.mapping, state, seat, player, held, current, deadline)
        future.add_done_callback(lambda done: self._done(seat, state, done))
        s._schedule(self.budget_s + LATE_S, lambda: self._late(seat, future))
        return f"thinking about your move (about {self.budget_s:g} s; longer on a busy table)…"

    def _late(self, seat: int, future: Any) -> None:
        """Slow is never wrong, but it is said: a hint still being worked out well past its budget
        (a worker starting on a busy machine) comes when it is ready."""
        if not future.done() and seat in self.thinking:
            self.session._tell(seat, f"your hint is taking longer than {self.budget_s:g} s: this table's "
                                     "computer is busy; it comes as soon as it is ready, keep this page open")

    def close(self) -> None:
        """Stop the hint worker (a hint being worked out is dropped)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self.thinking.clear()

    def _check(self, seat: int) -> None:
        s = self.session
        if s.state is None:
            raise HintError("no game: nothing to hint at")
        s._check_seat(seat)
        if not self.allowed:
            raise HintError("hints are off at this table (the console's Game panel or the "
                            "settings file's hints = true turn them on)")
        if s.is_computer(seat):
            raise HintError(f"{s.seat_name(seat)} is played by the computer: it needs no hint")
        if seat in self.thinking:
            raise HintError("your hint is being worked out: it comes in a moment")
        decision = s.mapping.decision(s.state)
        due = decision.player == seat if s.mode == "decide" and decision else seat in s.acting()
        if not due:
            raise HintError("hints are for your own move: ask when it is your turn")

    def _done(self, seat: int, state: Any, done: Any) -> None:
        try:
            hint = done.result()
        except Exception as err:  # a player's bug must not stall the table: say so instead
            log.exception("hint failed: %s", err)
            self.thinking.discard(seat)
            self.session._tell(seat, f"no hint this time ({err}); play on")
            return
        self._give(seat, state, hint)

    def _give(self, seat: int, state: Any, hint: Hint) -> None:
        s = self.session
        self.thinking.discard(seat)
        if s.state is not state:
            s._tell(seat, "the game moved on while your hint was worked out: ask again")
            return
        s.journal.add_hint(s.game_id, seat, hint.action, s.engine.state_hash(state))
        self.given[seat] = (state, hint, s.clock() + SHOW_S)
        s._tell(seat, f"hint: {hint.words}")
        s._schedule(SHOW_S + 0.01, s._draw)
        s._draw()

    def hint(self, seat: int) -> dict[str, Any] | None:
        """The seat's hint for the game as it stands (None: none asked, or the game moved on)."""
        given = self.given.get(seat)
        if given is None or given[0] is not self.session.state:
            return None
        shown = given[1].to_json()  # (worked out apart from the table: the seats by their names here)
        return {**shown, "words": self.session.spoken(shown["words"]), "thinking": seat in self.thinking}

    def marks(self) -> dict[int, CellState]:
        """Engine cell -> the mark of a slot's robot a hint lights now, in its seat's colour."""
        s, now, out = self.session, self.session.clock(), {}
        for seat, (state, hint, until) in list(self.given.items()):
            if state is not s.state or until <= now:
                continue
            colour = s.mapping.seat_name(state, seat)
            name = colour if colour in s.mapping.palette_index else "choice"
            for pos in hint.positions:
                mark = s.mapping.mark(state, seat, pos, name, m.PULSE)
                if mark is not None:
                    out[mark[0]] = mark[1]
        return out
