"""A table's MQTT client id: random per connection, so no one can push a table off the broker.

A broker disconnects the older of two clients with one client id. The id was
``botboard-TABLE-sha1(ROOM)[:8]``, and TABLE is in every topic: reconnecting with it 69
times in 40 s stalled a turn for the whole 40 s (issue 42, item 4), with 79 lines to the
players and tracebacks on stderr.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import logging
from pathlib import Path

import aiomqtt
import pytest

from botboard.remote.events import LinkChange
from botboard.remote.local_broker import Broker
from botboard.remote.notice import LinkNotice

from .. import patience
from .helpers import run, three_tables, until


def _downs(seen: object) -> int:
    return sum(1 for e in seen.events if isinstance(e, LinkChange) and not e.up)  # type: ignore[attr-defined]


async def _take_over(broker: Broker, client_id: str) -> None:
    """What the attacker did: connect with the table's id, stay a moment, go."""
    try:
        async with aiomqtt.Client("127.0.0.1", broker.port, identifier=client_id):
            await asyncio.sleep(0.05)  # pace: the attacker's connection lives a moment
    except aiomqtt.MqttError:
        pass


def test_the_old_predictable_client_id_no_longer_pushes_a_table_off(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            guesses = [f"botboard-{name}-{hashlib.sha1(b'club').hexdigest()[:8]}" for name in ("host", "a", "b")]
            assert t.a._link.client_id not in guesses
            playing = asyncio.gather(*(t.a.propose(2, {"add": k}) for k in range(10)))
            for _ in range(20):
                for guess in guesses:
                    await _take_over(broker, guess)
            answers = await playing
            assert all(answer.ok for answer in answers)
            for name in ("host", "a", "b"):
                assert _downs(t.seen[name]) == 0, f"table {name} was pushed off"
    run(play())


@pytest.mark.parametrize("pushes", [15])
def test_a_table_pushed_off_comes_back_quietly_and_its_players_hear_one_line(
        broker: Broker, caplog: pytest.LogCaptureFixture, pushes: int) -> None:
    # someone who learnt the current id (the broker's operator): each push meets a new id after
    caplog.set_level(logging.INFO)
    said: list[str] = []

    async def play() -> None:
        async with three_tables(broker) as t:
            notice = LinkNotice(said.append, grace=0.5, stable=60)  # as the joined table's daemon hears it
            seen = t.seen["a"]

            def heard(event: object) -> None:
                seen(event)
                if isinstance(event, LinkChange):
                    notice.change(event.up, event.error)

            t.a._on_event = heard
            seen.events.clear()

            async def playing() -> list:
                answers = []
                for k in range(60):  # busy: a push often comes as it publishes
                    answers.append(await t.a.propose(2, {"add": k}))
                return answers

            player = asyncio.create_task(playing())
            ids = []
            for _ in range(pushes):
                ids.append(t.a._link.client_id)
                await _take_over(broker, ids[-1])
                await until(lambda: t.a.up and t.a._link.client_id != ids[-1], "table a back")
            assert _downs(t.seen["a"]) == pushes  # each push did push it off
            assert len(set(ids)) == pushes  # and it came back under a new id each time
            assert all(answer.ok for answer in await player)
            notice.close()

    run(play())
    gc.collect()  # a future whose error nobody read says so when it is collected
    noisy = [r for r in caplog.records if r.exc_info or "never retrieved" in r.getMessage()
             or "Traceback" in r.getMessage()]
    assert not noisy, [r.getMessage() for r in noisy]
    assert len(said) <= 1  # the players: a line for the outage at most, not one per push


def test_a_joined_table_pushed_off_again_and_again_tells_its_players_nothing_new(
        broker: Broker, tmp_path: Path) -> None:
    # the whole daemon: its players hear what JoinedTable says (the issue counted 79 lines)
    from .two_tables import two_tables

    async def play() -> None:
        async with two_tables(broker, tmp_path, "botwars", 2, (0,), (1,), {"max_turns": 1}) as tables:
            joined = tables.joined
            heard = joined.subscribe()
            link = joined.remote.room._link
            for _ in range(10):
                pushed = link.client_id
                await _take_over(broker, pushed)
                await until(lambda: link.up and link.client_id != pushed, "table b back")
            await patience.aquiet(4)  # longer than the notice's grace: a late line would show
            lines = []
            while not heard.empty():
                event = heard.get_nowait()
                if event.get("event") == "message" and "link to the broker" in event.get("text", ""):
                    lines.append(event["text"])
            assert len(lines) <= 1, lines
            assert joined.remote.room.up

    asyncio.run(play())
