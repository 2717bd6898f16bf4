"""A Goblins, Inc. state as one player may believe it: hands, agendas, decks and dice at random.

Hidden from ``seat``: the other players' tiles in hand and agendas (kept or
still to choose), the order of the tile supply, the agenda decks and the
tactics deck, the controllers set before the reveal, and chance to come (the
seed: dice, ties, shuffles), the blueprints and team cards of rounds to
come. The seat keeps what it knows: its own hand and agendas and its team's
controllers (the sample forgets which two tiles it passed across). Unseen
tiles are pooled and dealt again in the same counts; other players' agendas
are drawn again from a full deck; hidden controllers are set at random.
"""

from __future__ import annotations

from random import Random

from .agendas import BET_SIDES, BETTING, deck as agenda_deck
from .combat import RELATIVE
from .context import pname
from .state import Player, State


def determinize(state: State, seat: int, rng: Random) -> State:
    new = state.clone()
    new.seed, new.chance, new.loaded = rng.randrange(1 << 30), 0, []
    others = [p for i, p in enumerate(new.players) if i != seat]
    pool = sorted(new.supply + [t for p in others for t in p.hand])
    rng.shuffle(pool)
    for index, player in enumerate(new.players):
        if index != seat:
            player.hand = sorted(pool.pop() for _ in player.hand)
            if pname(index) in new.kept:  # the 3 a planner kept, face down: from the new hand
                new.kept[pname(index)] = sorted(rng.sample(player.hand, len(new.kept[pname(index)])))
    new.supply = pool
    for player in others:
        _agendas(player, rng)
    own_deck = new.players[seat].agenda_deck
    own_deck.sort()
    rng.shuffle(own_deck)
    new.blueprints = _later(new.blueprints, new.round, rng)
    new.team_cards = _later(new.team_cards, new.round, rng)
    rest = sorted(new.tactics + new.tactics_rest)
    rng.shuffle(rest)
    new.tactics, new.tactics_rest = rest[:len(new.tactics)], rest[len(new.tactics):]
    if not new.reveal:
        mine = new.team_of(seat) if new.robots else -1
        for team, control in enumerate(new.controls):
            if team != mine:
                _controller(control, len(new.faceup), rng)
    return new


def _agendas(player: Player, rng: Random) -> None:
    """Another player's agendas: drawn again from a full deck (the bet on a random side)."""
    cards = sorted(agenda_deck())
    rng.shuffle(cards)
    held, kept = len(player.agenda_hand), len(player.agendas)
    player.agenda_hand = cards[:held]
    player.agendas = sorted(rng.choice(BET_SIDES) if c == BETTING else c for c in cards[held:held + kept])
    player.agenda_deck = cards[held + kept:]


def _later(order: list[int], played: int, rng: Random) -> list[int]:
    """A deck's cards for rounds not yet played, shuffled."""
    rest = sorted(order[played:])
    rng.shuffle(rest)
    return order[:played] + rest


def _controller(control: dict[str, int], cards: int, rng: Random) -> None:
    if "steer" in control:
        control["steer"], control["target"] = rng.randrange(len(RELATIVE)), rng.randrange(len(RELATIVE))
    if "card" in control:
        control["card"] = rng.randrange(1, cards + 1)
