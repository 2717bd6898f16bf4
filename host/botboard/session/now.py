"""What players read first: the "now" line and, once the game is over, the end screen.

A part of ``GameSession`` (session.py) with one job: saying, from the
session's state and never from the last event, who acts and what to do next
(``now``), and at the end who won, why, the standings and what to take off
the board (``end``). The shared screen reads ``now()``, a seat's phone
``now(seat)``; both say it in the game's words (``TableMapping.now_words``)
with the seats named by their colours.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..board.layouts import Layout
    from ..games.base import Game
    from .mapping import TableMapping
    from .picker import Picker
    from .seating import Seating
    from .table import Table


class NowWords:
    if TYPE_CHECKING:  # what it reads of the session (session.py sets them)
        state: Any
        mode: str
        message: str
        engine: Game[Any, Any]
        mapping: TableMapping[Any]
        picker: Picker | None
        seating: Seating | None
        layout: Layout
        table: Table
        awaiting: dict[int, tuple[str, Any]]
        prompts: dict[int, str]
        submitted: set[int]
        confirmed: dict[int, tuple[str, list[bytes | None]]]
        seat_messages: dict[int, str]
        clearing: dict[int, set[int]]

        def clear_words(self, seat: int, public: bool = False) -> str: ...
        def acting(self) -> list[int]: ...
        def seat_name(self, seat: int) -> str: ...

    def now(self, seat: int | None = None) -> dict[str, Any]:
        """``{"text", "who"}``: what to do next, for ``seat``'s phone or (None) the shared
        screen; ``who`` names the seats that act (the page colours them)."""
        if self.state is None:
            return {"text": self.message, "who": []}
        if self.mode == "over":
            end = self.end()
            return {"text": f"game over: {end['headline']}", "who": end["winners"]}
        if self.mode == "animate":
            return {"text": f"the board plays the move: {self.message} (confirm skips)", "who": []}
        if self.mode == "decide" and self.picker is not None:
            return self._decision_now(seat)
        if self.mode == "clear":
            return self._clear_now(seat)
        return self._program_now(seat)

    def _clear_now(self, seat: int | None) -> dict[str, Any]:
        """A round boundary: what to take off, before anyone's turn is said."""
        names = [self.seat_name(s) for s in self.clearing]
        if seat is None:
            text = "first clear the board: " + "; ".join(self.clear_words(s, public=True) for s in self.clearing)
        elif seat in self.clearing:
            text = "first clear your station: " + self.clear_words(seat).split(": ", 1)[1]
        else:
            text = f"wait: {' and '.join(names)} clear{'s' if len(names) == 1 else ''} the board first"
        return {"text": text, "who": names}

    def _decision_now(self, seat: int | None) -> dict[str, Any]:
        assert self.picker is not None
        decider = self.picker.decision.player
        who = self.seat_name(decider)
        prompt = self.spoken(self.picker.decision.prompt).removeprefix(f"{who}: ")  # said once
        if seat == decider:
            text = f"you decide: {prompt}: pick below, or touch a pulsing cell"
        else:
            text = f"{who} decides: {prompt}"
        return {"text": text, "who": [who]}

    def _program_now(self, seat: int | None) -> dict[str, Any]:
        acting = self.acting()
        names = [self.seat_name(s) for s in acting]
        waiting = " and ".join(names) or "nobody"
        if seat is None or seat in acting:
            if seat in self.awaiting:  # the verdict's words say what a second confirm means
                prompt = self.prompts.get(seat, "")  # its own words: a later notice cannot replace them
                text = prompt if "again" in prompt else f"{prompt}: press confirm again".lstrip(": ")
            else:
                text = self.mapping.now_words(self.state, seat)
        elif seat in self.confirmed:  # held, unseen, until the engine's order reaches it
            text = f"confirmed: your program waits for {waiting}"
        elif seat in self.submitted or self.mapping.simultaneous:  # (after an undo too)
            text = f"your move is in: waiting for {waiting}"
        else:
            text = f"{waiting} to play: wait for your turn"
        return {"text": text, "who": names}

    def spoken(self, text: str) -> str:
        """The engine's words as players read them: its p1, p2... become the seats' colours
        (p1/p2 stay in notations and files only)."""
        players = self.seating.players if self.seating is not None else 0
        text = self.mapping.engine_words(text)
        return ENGINE_SEAT.sub(lambda m: self.seat_name(int(m[1]) - 1) if 0 < int(m[1]) <= players
                                else m[0], text)

    # -- the end ----------------------------------------------------------------------
    def end(self) -> dict[str, Any]:
        """The end screen: winners, reason, each seat's final standing, and the tidy-up."""
        outcome = self.engine.outcome(self.state)
        assert outcome is not None and self.seating is not None
        players = self.seating.players
        winners = [self.seat_name(w) for w in outcome.winners]
        reason = self.spoken(outcome.reason)
        scores = list(outcome.scores)[:players]
        rank = {s: (s not in outcome.winners, -scores[s] if scores else 0) for s in range(players)}
        order = sorted(range(players), key=lambda s: rank[s])
        # seats that finished level share a place: a 0-0 draw is no "1st" and "2nd"
        standings = [{"seat": s, "name": self.seat_name(s), "score": scores[s] if scores else None,
                      "won": s in outcome.winners, "place": 1 + sum(rank[o] < rank[s] for o in order),
                      "shared": sum(rank[o] == rank[s] for o in order) > 1} for s in order]
        headline = (" and ".join(winners) + (" wins" if len(winners) == 1 else " win")
                    if winners else "nobody wins") + f" ({reason})"
        return {"winners": winners, "reason": reason, "headline": headline,
                "standings": standings, "tidy": self.tidy_words()}

    def result_words(self, seat: int) -> str:
        """A seat's own result, for its phone."""
        end = self.end()
        mine = next(s for s in end["standings"] if s["seat"] == seat)
        score = f" with a score of {mine['score']}" if mine["score"] is not None else ""  # the game's own measure
        if mine["won"]:
            said = "you won" if len(end["winners"]) < 2 else "you shared the win"
        elif mine["shared"] and not end["winners"]:
            said = "you drew"
        else:
            said = (f"you shared {_ordinal(mine['place'])} place" if mine["shared"]
                    else f"you finished {_ordinal(mine['place'])}")
        return f"{said}{score}: {end['headline']}"

    def tidy_words(self) -> str:
        """What to take off the stations, grouped: "take the 30 tiles off: yard A 14, yard B 16"."""
        counts: dict[str, int] = {}
        for station in self.layout.stations:
            held = sum(1 for k in station.slots if self.table.reading(k) is not None)
            if held:
                counts[station.name] = held
        total = sum(counts.values())
        if not total:
            return ""
        where = ", ".join(f"{place_words(name)} {n}" for name, n in counts.items())
        return f"take the {total} tile{'s' if total > 1 else ''} off: {where}"


ENGINE_SEAT = re.compile(r"\bp(\d)\b")  # how every engine names its players


def place_words(station: str) -> str:
    """A layout's station name as people say it: "yard-a" is yard A, "north" stays north."""
    head, _, tail = station.rpartition("-")
    return f"{head.replace('-', ' ')} {tail.upper()}" if head and len(tail) == 1 else station.replace("-", " ")


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")  # a table seats at most 8
