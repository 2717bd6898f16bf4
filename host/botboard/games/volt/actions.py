"""Actions and their notation (docs/scenarios-volt.md).

    p1 program R3NE B2N R6S          dice for units I, II, III: colour R|B, number, key
    p1 program R3NE B2N R6S II:R4W   a fourth die on unit II (RAM EXPANSION)
    p1 preset crossfire never        a permanent module setting: ask | always | never
    p1 use crossfire, p1 anchor 0, p1 deck red, p1 repair, ...   answers to a pending question

An answer is the text of one of the pending decision's choices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import InvalidNotation
from .grid import KEYS, UNITS
from .state import PRESETS, Die

_DIE_RE = re.compile(r"^(?:(I|II|III):)?([RB])([1-6])(N|NE|E|SE|S|SW|W|NW)$")


@dataclass(frozen=True)
class Action:
    player: int  # 0-based seat
    verb: str  # program | preset | answer
    dice: tuple[tuple[int, str, int, int], ...] = ()  # (unit, colour, key, number)
    words: str = ""  # preset "module setting", or the answer text

    def __str__(self) -> str:
        head = f"p{self.player + 1}"
        if self.verb == "program":
            return " ".join([head, "program", *(_die_text(d, i) for i, d in enumerate(self.dice))])
        if self.verb == "preset":
            return f"{head} preset {self.words}"
        return f"{head} {self.words}"

    def to_dice(self) -> list[Die]:
        return [Die(u, c, k, n) for u, c, k, n in self.dice]


def _die_text(die: tuple[int, str, int, int], index: int) -> str:
    unit, colour, key, number = die
    text = f"{colour[0].upper()}{number}{KEYS[key]}"
    return text if index < 3 and unit == index + 1 else f"{UNITS[unit - 1]}:{text}"


def parse(text: str) -> Action:
    words = text.split()
    if len(words) < 2 or not re.match(r"^[pP]\d+$", words[0]):
        raise InvalidNotation(f"bad action {text!r}: expected 'pN program R3NE B2N R6S', "
                              "'pN preset MODULE ask|always|never' or 'pN ANSWER' for a pending question")
    player = int(words[0][1:]) - 1
    if player < 0:
        raise InvalidNotation(f"bad player {words[0]!r}: players are p1, p2, ...")
    verb = words[1].lower()
    if verb == "program":
        return Action(player, "program", _parse_dice(words[2:], text))
    if verb == "preset":
        if len(words) != 4 or words[3].lower() not in PRESETS:
            raise InvalidNotation(f"bad preset {text!r}: expected 'pN preset MODULE ask|always|never'")
        return Action(player, "preset", words=f"{words[2].lower()} {words[3].lower()}")
    return Action(player, "answer", words=" ".join(w for w in words[1:]))


def _parse_dice(tokens: list[str], text: str) -> tuple[tuple[int, str, int, int], ...]:
    dice = []
    for index, token in enumerate(tokens):
        match = _DIE_RE.match(token.upper())
        if not match:
            raise InvalidNotation(f"bad die {token!r} in {text!r}: expected COLOUR NUMBER KEY like R3NE or "
                                  "B2N (R red, B blue, 1-6, key N NE E SE S SW W NW), optionally UNIT: "
                                  "in front (II:R4W)")
        unit_text, colour, number, key = match.groups()
        if unit_text is None and index >= 3:
            raise InvalidNotation(f"a fourth die needs its unit in {text!r}, e.g. II:{token}")
        unit = UNITS.index(unit_text) + 1 if unit_text else index + 1
        dice.append((unit, "red" if colour == "R" else "blue", KEYS.index(key), int(number)))
    return tuple(dice)
