"""Hidden information, measured rather than declared.

For positions along random games (the game's full options, not its short form), every
seat and a few samples of what that seat cannot see (``determinize``): what the seat is
shown (its seat view), and what the whole table is shown (the shared view, the turn and
score words, the LEDs) must not change. What a seat cannot see is measured too: the parts
of the referee's ``observe`` that the seat's ``observe`` leaves out or masks. Every such
part must vary in the samples somewhere, else the samples never tried it, and a game that
hides something must say so in its ``GameInfo`` (the console shows the seed of a game that
hides nothing, and the seed deals what is hidden).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .. import games
from ..games.base import GameError
from .play import player_counts, random_game
from .words import first_difference, parts

POSITIONS = 120  # per player count, spread over GAMES random games
GAMES = 4
MAX_GAMES = 16  # while some hidden part has not varied yet
SAMPLES = 2  # samples of each seat's unknowns per position
SETTINGS = ("seed",)
EMPTY = ("[]", "{}", "null", '""')  # a hidden part with nothing in it has nothing to deal again  # parts of a view that are settings, not secrets (samples draw a new seed)


@dataclass
class Measure:
    name: str
    positions: int = 0
    samples: int = 0
    unsampled: int = 0  # samples the game said it cannot draw (GameError)
    changed: int = 0  # samples that differ from the true state
    hidden: dict[str, bool] = field(default_factory=dict)  # a hidden part -> whether a sample changed it
    values: dict[str, set[str]] = field(default_factory=dict)  # a hidden part -> its true values seen
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        varied = [p for p, changed in self.hidden.items() if changed]
        return (f"{self.name}: {self.positions} positions, {self.samples} samples "
                f"({self.changed} differing from the true state, {self.unsampled} the game could not draw); "
                f"{len(self.hidden)} hidden parts, {len(varied)} of them changed by a sample"
                + (f", {len(self.hidden) - len(varied) - len(self.still())} kept one value in play"
                   if len(self.hidden) > len(varied) + len(self.still()) else ""))

    def still(self) -> list[str]:
        """Hidden parts that never varied in the samples."""
        return sorted(p for p, changed in self.hidden.items() if not changed and len(self.values[p]) > 1)

    def problem(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)


def spread(name: str, players: int, seed: int) -> list[Any]:
    """About POSITIONS // GAMES positions evenly spread along one random game of the full game."""
    states = list(random_game(name, players, seed))
    step = max(1, len(states) // (POSITIONS // GAMES))
    return states[::step][:POSITIONS // GAMES]


def measure(name: str, rng_seed: int = 7) -> Measure:
    """GAMES random games for each player count, then more (up to MAX_GAMES) until there were
    POSITIONS positions (a short game gives fewer a game) and every hidden part was changed by a sample."""
    game = games.get(name)
    table = games.table(name)() if games.declaration(name).table else None
    found, rng = Measure(name), random.Random(rng_seed)
    for players in player_counts(name):
        start = found.positions
        for seed in range(MAX_GAMES):
            if seed >= GAMES and found.positions - start >= POSITIONS and not found.still():
                break  # enough positions, and every hidden part has varied
            for state in spread(name, players, seed):
                found.positions += 1
                for seat in range(players):
                    _seat(found, game, table, state, seat, rng)
                if len(found.problems) >= 3:
                    return found
    _judge_the_measure(found, game)
    return found


def _part(path: str) -> str:
    """A hidden part by name: its path without list positions (a hand, not its third card)."""
    return ".".join(key for key in path.split(".") if not key.isdigit())


def _unsettled(view: Any) -> Any:
    return {k: v for k, v in view.items() if k not in SETTINGS} if isinstance(view, dict) else view


def _seat(found: Measure, game: Any, table: Any, state: Any, seat: int, rng: random.Random) -> None:
    referee, mine = parts(game.observe(state, None)), parts(_unsettled(game.observe(state, seat)))
    secret = [p for p in referee if p.split(".")[0] not in SETTINGS and mine.get(p) != referee[p]
              and referee[p] not in EMPTY]
    for path in secret:
        found.hidden.setdefault(_part(path), False)
        found.values.setdefault(_part(path), set()).add(f"{path}={referee[path]}")
    for _ in range(SAMPLES):
        found.samples += 1
        try:
            sample = game.determinize(state, seat, rng)
        except GameError:
            found.unsampled += 1
            continue
        found.changed += game.state_hash(sample) != game.state_hash(state)
        told = parts(game.observe(sample, None))
        for path in secret:
            if told.get(path) != referee[path]:
                found.hidden[_part(path)] = True
        _compare(found, game, table, state, sample, seat)


def _compare(found: Measure, game: Any, table: Any, state: Any, sample: Any, seat: int) -> None:
    """``sample`` differs from ``state`` only in what ``seat`` cannot see."""
    where = f"seat {seat} of a {found.name} position (position {found.positions} tried)"
    said = first_difference(_unsettled(game.observe(sample, seat)), _unsettled(game.observe(state, seat)))
    if said:
        found.problem(f"determinize changed what seat {seat} can see ({said}): it must deal again only what "
                      f"observe(state, {seat}) hides; look at the engine's determinize ({where})")
    if table is None:
        return
    checks = (("seat view", lambda s: table.seat_view(s, seat), f"seat_view(state, {seat})"),
              ("shared view", table.public_view, "public_view"),
              ("turn words on the shared screen", table.turn_words, "turn_words"),
              ("score words on the shared screen", table.score_words, "score_words"),
              ("LED picture", table.picture, "picture (or the leds module's picture)"))
    for what, show, hook in checks:
        said = first_difference(show(sample), show(state))
        if said:
            whose = f"seat {seat}'s" if what == "seat view" else "the whole table's"
            found.problem(f"{whose} {what} changes when only what seat {seat} may not see changes "
                          f"({said}): it leaks a secret; look at the table mapping's {hook} ({where})")


def _judge_the_measure(found: Measure, game: Any) -> None:
    if not found.hidden:
        return
    if not game.info.hidden_information:
        found.problem(f"{found.name} declares hidden_information=False, but observe hides "
                      f"{sorted(found.hidden)[0]} from a seat: declare hidden_information=True in the "
                      "engine's GameInfo (the console shows the seed, which deals what is hidden, of a game "
                      "that hides nothing)")
    if found.unsampled == found.samples:
        found.problem(f"{found.name} hides {sorted(found.hidden)[0]} but determinize never drew a sample: "
                      "write the engine's determinize(state, seat, rng), dealing again what the seat cannot see")
    elif found.still():
        found.problem(f"determinize never dealt again {', '.join(found.still()[:3])}, which observe hides from a "
                      f"seat ({found.summary()}): a leak there could not be seen; deal every hidden part again in "
                      "the engine's determinize")
