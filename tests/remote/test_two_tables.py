"""Remote play at the table: two daemons with two simulated boards play whole games through a
real mosquitto; what each table shows, and what it must not be told."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from botboard.remote.record import EntryStore

from .broker import Broker
from .two_tables import two_tables, until

pytestmark = pytest.mark.timeout(600)


@pytest.mark.parametrize("game, players, options", [
    ("twin-tin-bots", 2, {"track": 0}),
    ("botwars", 2, {"max_turns": 2}),
    ("volt", 2, {"max_rounds": 2}),
    ("goblins", 2, {}),
])
def test_a_whole_game_across_two_tables(broker: Broker, tmp_path: Path, game: str, players: int,
                                        options: dict) -> None:
    async def play() -> None:
        async with two_tables(broker, tmp_path, game, players, (0,), (1,), options) as tables:
            host, joined = tables.host, tables.joined
            await tables.hands().play()
            session = host.session
            assert session.mode == "over"
            actions = session.journal.actions(session.game_id)
            assert len(actions) >= 2
            # the joined table saw the same end, and its LEDs show what the host's show
            await until(lambda: joined.session.state and joined.session.state.get("phase") == "over", 20,
                        "the joined table to see the end")
            await until(lambda: joined.conn.image.cells == host.conn.image.cells, 20,
                        "the same picture on both boards")
            seen = EntryStore(tmp_path / "b" / "room-club.sqlite")
            entries = seen.seen(seen.meta()["epoch"])
            assert [e.n for e in entries] == list(range(1, len(entries) + 1))  # each once, in order
            hashes = [e.public["event"]["state_hash"] for e in entries
                      if isinstance(e.public, dict) and e.public.get("event", {}).get("event") == "action"]
            assert hashes == [a["state_hash"] for a in actions]  # every action, same order, same hash

    asyncio.run(play())


def test_a_seat_view_reaches_only_its_table(broker: Broker, tmp_path: Path) -> None:
    async def play() -> None:
        async with two_tables(broker, tmp_path, "botwars", 2, (0,), (1,), {"max_turns": 1}) as tables:
            host, joined = tables.host, tables.joined
            hand0 = host.session.seat_view(0)["private"]
            assert joined.session.seat_view(1)["private"] == host.session.seat_view(1)["private"]
            with pytest.raises(ValueError):
                joined.session.seat_view(0)
            seen = EntryStore(tmp_path / "b" / "room-club.sqlite")
            text = json.dumps([[e.public, e.private] for e in seen.seen(seen.meta()["epoch"])])
            cards = [str(c) for c in hand0.get("hand", [])]
            assert cards and not any(f'"{c}"' in text for c in cards if len(c) > 3)

    asyncio.run(play())
