"""Whether a game's evaluation points the right way: after the game is won (the last scoring
event), the winners' standing has gained more since the start than the others'.

Ends come from the game's scenarios and from random games of its full options. Each
decisive end votes: +1 if every winner gained more than every other seat (a lone player:
gained at all), -1 if some other seat gained more than a winner; ties do not vote. An
evaluation with its sign inverted votes against itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import games
from ..games import scenario
from ..games.base import GameError
from .play import player_counts, random_game

GAMES = 4  # random games per player count


@dataclass
class Votes:
    name: str
    ends: int = 0
    votes: int = 0
    against: list[str] = field(default_factory=list)  # where an end voted against


def ends(name: str) -> list[tuple[str, Any, Any]]:
    """(where, first state, last state) of the scenarios and random games that end."""
    game, out = games.get(name), []
    folder = games.declaration(name).scenario_folder()
    for path in sorted(folder.glob("*.json")) if folder else []:
        try:
            doc = scenario.load(path)
            result = scenario.run(doc)
            start = game.scenario_start(doc["players"], doc["options"], doc["seed"], doc.get("position"))
        except GameError:
            continue  # a scenario that does not run is the scenario check's to report
        out.append((f"scenario {path.name}", start, result.state))
    for players in player_counts(name):
        for seed in range(GAMES):
            states = list(random_game(name, players, seed))
            out.append((f"random game {seed} of {players} players", states[0], states[-1]))
    return [(where, a, b) for where, a, b in out if game.outcome(b) is not None]


def count(name: str) -> Votes:
    game, standing = games.get(name), games.evaluation(name).standing
    found = Votes(name)
    for where, start, end in ends(name):
        outcome = game.outcome(end)
        assert outcome is not None  # ends() keeps the states that ended
        winners = set(outcome.winners)
        gain = [after - before for before, after in zip(standing(start), standing(end))]
        others = set(range(len(gain))) - winners
        if not winners or not gain or (not others and len(gain) > 1):
            continue  # nobody won, or everybody: no direction to read
        found.ends += 1
        low = min(gain[w] for w in winners)
        high = max((gain[o] for o in others), default=0.0)
        if low > high:
            found.votes += 1
        elif low < high:
            found.votes -= 1
            found.against.append(f"{where}: winners {sorted(winners)}, gains {[round(g, 2) for g in gain]}")
    return found
