"""Every hint of a whole game, of every game, followed literally at the table: the test reads the
hint's words, does what they say with tiles in the seat's slots (through the board's messages, as
hands would), sets the phone's fields by their labels, presses confirm as often as it says, and
the table never refuses it. Hints are the move said as the table asks for it, not engine words."""

from __future__ import annotations

import re
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from botboard import games

from .helpers import GameTable

_STEP = re.compile(r"take (?P<take>.+) out of (?P<from>.+)|put (?P<put>.+) in (?P<to>.+)"
                   r"|move (?P<move>.+) from (?P<src>.+) to (?P<dst>.+)|set (?P<label>.+) to (?P<value>.+)"
                   r"|press confirm(?P<twice> twice)?|choose (?P<choice>.+)")
LIMIT = 400  # moves: every short game ends well before


class Follower:
    """Hands and phones that do exactly what a hint says."""

    def __init__(self, tmp: Path, game: str) -> None:
        mapping = games.table(game)
        players = games.get(game).info.min_players
        self.t = GameTable(tmp, game, mapping.default_layout(players))
        self.s = self.t.session
        self.s.new_game(players, dict(games.declaration(game).quick_options), 3)
        self.s.hints.iterations = 6  # fixed, small work: the hint's wording is under test, not its skill
        self.serial = count(100)
        self.by_words: dict[str, Any] = {}
        for tile in self.s.mapping.catalogue.every_tile():
            self.by_words.setdefault(self.s.mapping.tile_words(tile), tile)
        self.followed = 0

    def slot(self, seat: int, name: str) -> int:
        names = [self.s.mapping.slot_name(self.s.state, p) for p in range(self.s.mapping.slots_per_seat())]
        name = name.removeprefix("slot ")
        assert name in names, f"the hint names {name!r}: the board labels its slots {names}"
        return self.t.at(seat, names.index(name))

    def tile(self, words: str) -> tuple[bytes, bytes]:
        assert words in self.by_words, f"no tile reads {words!r}"
        return self.s.mapping.virtual_tag(self.by_words[words], next(self.serial))

    def hint(self, seat: int) -> dict[str, Any]:
        self.s.hints.ask(seat)  # no running loop: answered at once
        hint = self.s.hints.hint(seat)
        assert hint is not None
        said = [s["words"] for s in hint["steps"]]
        assert said, f"a hint that cannot be followed: {hint['words']!r}"
        expected = said[0] if len(said) == 1 else (", ".join(said[:-1]) + ", then " + said[-1])
        assert hint["words"] in (expected, f"your tiles are right: {said[-1]}"), hint["words"]
        return hint

    def follow(self, seat: int) -> None:
        hint = self.hint(seat)
        self.do(seat, [s["words"] for s in hint["steps"]], hint["words"])
        self.followed += 1

    def clear(self) -> None:
        """A round boundary: each seat's phone says what to take off; its hands do just that."""
        for seat in range(len(self.s.seats())):
            now = self.s.now(seat)["text"]
            if now.startswith("first clear your station: "):
                _, steps = now.removeprefix("first clear your station: ").split(": ", 1)
                self.do(seat, steps.split(", "), now)
        assert self.s.mode != "clear", f"cleared as told, yet: {self.s.now()['text']}"

    def do(self, seat: int, said: list[str], words: str) -> None:
        steps = [_STEP.fullmatch(step) for step in said]
        hint = {"words": words}
        assert all(steps), words
        lifted: dict[str, tuple[bytes, bytes]] = {}
        for step in steps:  # what comes out of the slots first: moves lift their tile too
            if step["take"] or step["move"]:
                slot = self.slot(seat, step["from"] or step["src"])
                reading = self.s.table.reading(slot)
                assert reading is not None, f"{hint['words']!r}: that slot is empty"
                if step["move"]:
                    lifted[step["src"]] = (reading.uid, reading.payload)
                self.t.take(slot)
        before = len(self.t.published)
        for step in steps:
            if step["move"]:
                self.t.put(self.slot(seat, step["dst"]), *lifted[step["src"]])
            elif step["put"]:
                self.t.put(self.slot(seat, step["to"]), *self.tile(step["put"]))
            elif step["label"]:
                self.set_field(seat, step["label"], step["value"])
            elif step[0].startswith("press confirm"):
                for _ in range(2 if step["twice"] else 1):
                    self.t.press(seat, "confirm")
            elif step["choice"]:
                self.choose(seat, step["choice"])
        refusals = [e["text"] for e in self.t.published[before:]
                    if e.get("event") == "message" and e.get("seat") == seat and "refused" in e["text"]]
        assert not refusals, f"{hint['words']!r} was refused: {refusals}"

    def set_field(self, seat: int, label: str, value: str) -> None:
        fields = {c["label"]: c for c in self.s.seat_view(seat)["controls"]}
        assert label in fields, f"the phone has no field {label!r}: {list(fields)}"
        choice = next(c for c in fields[label]["choices"] if str(c) == value)
        self.s.set_control(seat, fields[label]["name"], choice)

    def choose(self, seat: int, words: str) -> None:
        pending = self.s.seat_view(seat)["pending"]
        assert pending is not None, "a choice hinted, but the phone shows none"
        labels = {pending["words"].get(c, c): c for c in pending["choices"]}
        assert words in labels, f"no button reads {words!r}: {list(labels)}"
        self.s.decide(labels[words], seat)

    def due(self) -> int | None:
        """The seat whose phone may ask for a hint now."""
        if self.s.mode == "decide" and self.s.picker is not None:
            return self.s.picker.decision.player
        acting = self.s.acting()
        return acting[0] if self.s.mode == "program" and acting else None


@pytest.mark.parametrize("game", games.table_names())
def test_every_hint_of_a_whole_game_followed_literally_is_never_refused(tmp_path: Path, game: str) -> None:
    f = Follower(tmp_path, game)
    for _ in range(LIMIT):
        if f.s.mode == "over":
            break
        if f.s.mode == "clear":
            f.clear()
            continue
        seat = f.due()
        assert seat is not None, f"nobody to hint in mode {f.s.mode}: {f.s.now()['text']}"
        f.follow(seat)
    assert f.s.mode == "over", f"the game did not end in {LIMIT} hints"
    assert f.followed > 2
    said = [e["text"] for e in f.t.published if e.get("event") == "message"]
    assert not [t for t in said if "out of turn" in t], "the rules' doing said as a hand's"


def test_a_swap_is_said_as_two_moves_not_as_a_second_tile() -> None:
    # a hint once said "put blue F2 in B3" for a swap B2<>B3: a second F2 was then refused
    from botboard.games.twintinbots.table.tiles import make_tile
    from botboard.session.hints import changes

    mapping = games.table("twin-tin-bots")()
    state = mapping.engine.new_game(2, {"track": 0}, 1)
    f2, left = make_tile("F2", "blue"), make_tile("L", "blue")
    have = [None, None, None, None, f2, left]
    steps = [s.words() for s in changes(mapping, state, have, [None, None, None, None, left, f2])]
    assert steps == ["move blue L (Turn left) from B3 to B2", "move blue F2 (Forward 2x) from B2 to B3"]
    taken = [s.words() for s in changes(mapping, state, have, [None, None, None, f2, None, None])]
    assert taken == ["take blue L (Turn left) out of B3", "move blue F2 (Forward 2x) from B2 to B1"]
