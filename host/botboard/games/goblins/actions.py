"""Actions and their notation (docs/scenarios-goblins.md). Every action answers a pending decision.

    p1 keep t3 t17 t40              planner: the 3 tiles kept (the other 2 go opposite)
    p1 place t17 r1c2 E             builder: tile, square, where the tile's printed top points
    p1 agendas artist decoy ninja star     the 4 agendas kept; the betting card as star|snitch
    p1 pilot R B                    steering dial (F R B L) and targeting mechanism (F R B L)
    p2 tactic 2                     tactics card 1 (left), 2 (middle), 3 (right)
    p2 sabotage | p2 tape r2c3 | p2 crane r2c3 r1c3 W | p2 done          before the roll
    p2 nitro all | p2 nitro 3 | p2 emergency | p2 homing 3 5 | p2 dynamite | p2 done   after it
    p2 order 3 1 - 5                the attacker's order of the dice ('-' a blank)
    p3 token r2c3+r2c4              defending pilot: which defense token a hit removes
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base import InvalidNotation

VERBS = ("keep", "place", "agendas", "pilot", "tactic", "sabotage", "tape", "crane", "nitro",
         "emergency", "homing", "dynamite", "done", "order", "token")
_LETTERS = set("NESWFRBL")


@dataclass(frozen=True)
class Action:
    player: int  # 0-based: p1 is 0
    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join([f"p{self.player + 1}", self.verb, *self.args])


def _arg(word: str) -> str:
    return word.upper() if word.upper() in _LETTERS else word.lower()


def parse(text: str) -> Action:
    words = text.split() if isinstance(text, str) else []
    if len(words) < 2 or not words[0].lower().startswith("p") or not words[0][1:].isdigit():
        raise InvalidNotation(f"bad action {text!r}: expected 'pN VERB ...', e.g. 'p1 keep t3 t17 t40', "
                              "'p1 place t17 r1c2 E', 'p1 pilot R B', 'p2 tactic 2' (docs/scenarios-goblins.md)")
    player, verb = int(words[0][1:]) - 1, words[1].lower()
    if player < 0:
        raise InvalidNotation(f"bad player {words[0]!r}: players are p1..p4")
    if verb not in VERBS:
        raise InvalidNotation(f"unknown verb {verb!r} in {text!r}; verbs: {', '.join(VERBS)}")
    args = [_arg(w) for w in words[2:]]
    if verb in ("keep", "agendas"):
        args.sort(key=lambda a: (len(a), a) if verb == "keep" else a)
    return Action(player, verb, tuple(args))


def tile_name(tile: int) -> str:
    return f"t{tile}"


def die_name(die: int) -> str:
    return str(die) if die else "-"
