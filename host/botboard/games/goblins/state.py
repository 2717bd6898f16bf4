"""Goblins, Inc. game state: players, the two robots, the round and its pending decisions.

Everything is kept in JSON-native containers so ``to_json``/``from_json``
are plain copies; the engine clones a state before changing it. Chance comes
from ``random.Random(f"{seed}:{chance}")``, the counter going up by one per
use, so a state carries its own future.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, fields
from typing import Any, Mapping

from ..base import JSON, ScenarioError
from ..fields import reading_state


@dataclass
class Robot:
    """A team's robot and the team that built it."""

    members: list[int]  # players, the one who builds and pilots first first
    blueprint: str = ""
    blocked: list[str] = field(default_factory=list)
    yard: dict[str, list[int]] = field(default_factory=dict)  # square -> [tile id, rotation]
    front: int = 0  # the yard side currently in front (0..3 = N E S W)
    tokens: list[list[str]] = field(default_factory=list)  # squares each defense token covers
    goblins: list[int] = field(default_factory=list)  # owner of each goblin figure in the cockpit
    pilot: int = 0
    tactician: int = 0
    scrap: list[int] = field(default_factory=list)  # tile ids in this team's scrapyard
    scrap_tokens: int = 0
    scrap_goblins: list[int] = field(default_factory=list)
    loose: list[int] = field(default_factory=list)  # tiles that fell off before combat (also in scrap)
    knocked: int = 0  # pieces the opponents knocked off in combat (the tiebreak)


@dataclass
class Player:
    score: int = 0  # total points; the track shows score % 50, promotions score // 50
    hand: list[int] = field(default_factory=list)  # construction tiles held
    agenda_deck: list[str] = field(default_factory=list)
    agenda_hand: list[str] = field(default_factory=list)
    agendas: list[str] = field(default_factory=list)  # kept, the bet as "star" or "snitch"
    history: list[dict[str, Any]] = field(default_factory=list)  # points per round


@dataclass
class State:
    seed: int
    box: str
    variant: str
    rounds: int
    players: list[Player]
    tie_round: bool = False  # a tie after the last round plays one more round (else it stays tied)
    robots: list[Robot] = field(default_factory=list)
    chance: int = 0
    round: int = 0
    stage: str = "setup"  # setup | build | combat | over
    team_cards: list[int] = field(default_factory=list)
    blueprints: list[int] = field(default_factory=list)
    supply: list[int] = field(default_factory=list)  # construction tiles, top first
    schedule: list[list[int]] = field(default_factory=list)  # planners of each build step
    step: int = 0
    queue: list[list[Any]] = field(default_factory=list)  # pending decisions [player, kind]
    kept: dict[str, list[int]] = field(default_factory=dict)  # planner -> tiles kept this step
    tactics: list[int] = field(default_factory=list)  # this round's face-down tactics cards
    tactics_rest: list[int] = field(default_factory=list)
    faceup: list[int] = field(default_factory=list)
    combat_round: int = 0
    controls: list[dict[str, Any]] = field(default_factory=list)  # per team, secret until revealed
    reveal: list[dict[str, Any]] = field(default_factory=list)  # per team, once revealed
    dice: list[list[int]] = field(default_factory=list)  # per team; 0 is a blank
    hits: list[list[int]] = field(default_factory=list)  # per team: dice still to resolve, in order
    loaded: list[int] = field(default_factory=list)  # scenario dice, used before the seed's
    shared_agendas: list[str] = field(default_factory=list)  # the party version's 3 agendas
    starter: int = 0
    disabled: list[bool] = field(default_factory=lambda: [False, False])
    result: dict[str, Any] | None = None  # the last round's result
    outcome: dict[str, Any] | None = None

    def clone(self) -> State:
        return State.from_json(self.to_json(), check=False)

    def rng(self) -> random.Random:
        """The next source of chance; every call moves the state's counter on."""
        rng = random.Random(f"{self.seed}:{self.chance}")
        self.chance += 1
        return rng

    def team_of(self, player: int) -> int:
        return 0 if player in self.robots[0].members else 1

    def to_json(self) -> dict[str, JSON]:
        doc: dict[str, JSON] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("players", "robots"):
                value = [dict(item.__dict__) for item in value]
            doc[f.name] = value
        copied: dict[str, JSON] = json.loads(json.dumps(doc))
        return copied

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], check: bool = True) -> State:
        if check:
            doc = json.loads(json.dumps(doc))  # own the containers; fail early on non-JSON
        with reading_state():
            values = {f.name: doc[f.name] for f in fields(cls) if f.name in doc}
            values["players"] = [Player(**p) for p in doc["players"]]
            values["robots"] = [Robot(**r) for r in doc.get("robots", [])]
            state = cls(**values)
        if not check:
            return state
        unknown = set(doc) - {f.name for f in fields(cls)}
        if unknown:
            raise ScenarioError(f"state: unknown field(s) {', '.join(sorted(unknown))}")
        return state
