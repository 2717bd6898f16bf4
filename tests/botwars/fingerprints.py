"""Fingerprints of BotWars' behaviour: seeded random games and single stages, hashed.

    .venv/bin/python -m tests.botwars.fingerprints   # rewrite fingerprints.json

Run it only after an intended change of the rules, the state's JSON or an
event's data or words: test_fingerprints.py checks that the engine still plays
every seeded game and stage exactly as recorded, so a change made for speed
cannot change what happens. Each fingerprint hashes every state (its
``state_hash``) and every event (kind, data and words) in order.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from botboard.games.base import Event
from botboard.games.botwars.board import load_board
from botboard.games.botwars.cards import deck
from botboard.games.botwars.context import Ctx
from botboard.games.botwars.game import GAME
from botboard.games.botwars.phases import run_stage
from botboard.games.botwars.state import Player, State

RECORDED = Path(__file__).with_name("fingerprints.json")
BOARDS = ("factory", "test")
RULESETS = ("v2.1", "v1")
GAMES = 30  # seeded games per board and ruleset
STAGES = 150  # single stages per board and ruleset


def _events(digest: Any, events: list[Event]) -> None:
    for event in events:
        digest.update(json.dumps([event.kind, event.data, event.text], sort_keys=True).encode())


def games(board: str, ruleset: str, count: int = GAMES) -> str:
    """Random legal games: ``apply`` (events built) and ``advance`` (none) must agree at every step."""
    digest = hashlib.sha256()
    for seed in range(count):
        rng = random.Random(seed)
        options = {"board": board, "ruleset": ruleset, "max_turns": rng.randint(2, 8)}
        state = quiet = GAME.new_game(rng.randint(1, 6), options, seed)
        while not GAME.is_terminal(state):
            actions = GAME.legal_actions(state)
            action = actions[rng.randrange(len(actions))]
            if rng.random() < 0.9 and len(actions) > 1:  # reboots are rare at a real table
                action = actions[rng.randrange(len(actions) // 2)]
            state, events = GAME.apply(state, action)
            quiet = GAME.advance(quiet, action)
            _events(digest, events)
            played = GAME.state_hash(state)
            assert played == GAME.state_hash(quiet), f"{board} {ruleset} seed {seed}: advance differs from apply"
            digest.update(played.encode())
    return digest.hexdigest()


def stages(board: str, ruleset: str, count: int = STAGES) -> str:
    """One stage each for eight real robots on random squares and facings with random cards
    (crowded floors: pushes, belts into robots, beams that stop), with and without events."""
    floor = load_board(board)
    rng = random.Random(f"{board}:{ruleset}")
    squares = [(x, y) for x in range(1, floor.width + 1) for y in range(1, floor.height + 1)
               if (floor.cell((x, y)) or {}).get("type") != "pit"]
    cards = deck().base
    digest = hashlib.sha256()
    for _ in range(count):
        players = [Player(f"p{i + 1}", square, rng.randrange(4), square, mode="real",
                          program=[card, None, None, None, None])
                   for i, (square, card) in enumerate(zip(rng.sample(squares, 8), rng.sample(cards, 8)))]
        state = State(ruleset, board, 0, players, turn=2)
        loud, quiet = state.clone(), state.clone()
        events: list[Event] = []
        run_stage(Ctx(loud, events), 1)
        run_stage(Ctx(quiet, None), 1)
        _events(digest, events)
        played = GAME.state_hash(loud)
        assert played == GAME.state_hash(quiet), f"{board} {ruleset}: a stage without events differs"
        digest.update(played.encode())
    return digest.hexdigest()


def fingerprints() -> dict[str, str]:
    found = {}
    for board in BOARDS:
        for ruleset in RULESETS:
            found[f"games {board} {ruleset}"] = games(board, ruleset)
            found[f"stages {board} {ruleset}"] = stages(board, ruleset)
    return found


if __name__ == "__main__":
    RECORDED.write_text(json.dumps(fingerprints(), indent=1) + "\n")
    print(f"wrote {RECORDED}")
