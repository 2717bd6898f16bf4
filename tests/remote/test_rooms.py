"""Host and joined tables through a real mosquitto: order, de-duplication, refusals."""

from __future__ import annotations

import asyncio
import json

import aiomqtt
import pytest

from botboard.remote.protocol import CHANNEL_KINDS, Answer, Proposal, decode, encode
from botboard.remote.events import RoomChange
from botboard.remote.room import JoinedRoom, SpectatorRoom

from botboard.remote.local_broker import Broker
from .. import patience
from .helpers import FAST, Seen, joined_and_ready, opened, public_log, run, three_tables, until


def test_two_tables_and_the_host_see_the_same_entries_in_the_same_order(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            answers = await asyncio.gather(
                *(t.a.propose(2, {"add": k}) for k in range(5)),
                *(t.b.propose(3, {"add": 10 + k}) for k in range(5)),
                *(t.host.propose(1, {"add": 100 + k}) for k in range(3)),
                t.host.append({"deal": "cards"}, {"a": "hand of a", "b": "hand of b"}))
            assert all(answer.ok for answer in answers[:13])
            assert sorted(answer.n for answer in answers) == list(range(1, 15))
            await until(lambda: len(t.seen["a"].entries()) == 14 == len(t.seen["b"].entries()), "14 entries")
            record = public_log(t.seen["host"].host_entries())
            assert [n for n, _ in record] == list(range(1, 15))
            assert public_log(t.seen["a"].entries()) == record == public_log(t.seen["b"].entries())
            # each table's order of its own proposals is kept
            a_adds = [p["add"] for _, p in record if p.get("seat") == 2]
            assert a_adds == sorted(a_adds)
            # private parts: each table sees only its own
            for name in ("a", "b"):
                for entry in t.seen[name].entries():
                    if entry.table == name:
                        assert entry.private == {"echo": entry.public["add"]}
                    elif "deal" in entry.public:
                        assert entry.private == f"hand of {name}"
                    else:
                        assert entry.private is None
            assert len(t.game.calls) == 13
    run(play())


def test_a_duplicate_proposal_is_applied_once_and_answered_the_same(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            topics = t.host.topics
            async with aiomqtt.Client("127.0.0.1", broker.port) as raw:
                await raw.subscribe(topics.to("a"), qos=1)
                # table a's proposal, sent three times (as a table does after a reconnect)
                proposal = t.a.seal(topics.propose("a"), encode(Proposal("a", "raw1", 1, t.host.epoch, 2,
                                                                         {"add": 7})))
                for _ in range(3):
                    await raw.publish(topics.propose("a"), proposal, qos=1)
                answers: list[Answer] = []
                async for message in raw.messages:
                    found = decode(opened(t.a, message), CHANNEL_KINDS["to"])
                    if isinstance(found, Answer):
                        answers.append(found)
                    if len(answers) == 3:
                        break
            assert answers == [Answer(t.host.epoch, "raw1", 1, True, n=1)] * 3
            assert t.game.calls == [("a", 2, {"add": 7})]
            assert t.host.last_n == 1
            await patience.aquiet(0.2)  # no second entry for the repeats
            assert [e.n for e in t.seen["b"].entries()] == [1]
    run(play())


def test_a_proposal_for_another_tables_seat_is_refused_and_changes_nothing(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            answer = await t.a.propose(3, {"add": 1})
            assert not answer.ok and answer.reason == "seat 3 belongs to table b"
            illegal = await t.a.propose(2, {"add": -1})
            assert not illegal.ok and illegal.reason == "add must be a number >= 0"
            assert t.game.calls == [("a", 2, {"add": -1})]  # the seat was refused before the rules
            assert t.host.last_n == 0
            assert [r.reason for r in t.seen["a"].refusals()] == [
                "seat 3 belongs to table b", "add must be a number >= 0"]
            ok = await t.a.propose(2, {"add": 1})
            assert ok.ok and ok.n == 1
    run(play())


def test_an_unknown_table_and_a_claim_of_a_taken_seat_are_refused(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            seen = Seen()
            intruder = await joined_and_ready(JoinedRoom(broker.url(), "c", seats=[3], on_event=seen, **FAST))
            await until(lambda: seen.refusals(), "claim refused")
            assert seen.refusals()[0].seats == (3,)
            assert "seat 3 belongs to table b" in seen.refusals()[0].reason
            answer = await intruder.propose(3, {"add": 1})
            assert not answer.ok and answer.reason == "unknown table c"
            assert t.host.last_n == 0 and t.game.calls == []
            await intruder.close()
    run(play())


@pytest.mark.parametrize("payload", [
    b"{not json", b"[1, 2]", b'{"v": 2, "kind": "proposal"}', b'{"v": 1, "kind": "entry"}',
    b'{"v": 1, "kind": "proposal", "table": "a", "run": "r", "counter": 1, "epoch": "e", "seat": 2}',
    b'{"v": 1, "kind": "proposal", "table": "b", "run": "r", "counter": 1, "epoch": "E", "seat": 3,'
    b' "payload": {"add": 1}}',  # b's proposal on a's topic
    b'{"v": 1, "kind": "proposal", "table": "a", "run": "r", "counter": true, "epoch": "E", "seat": 2,'
    b' "payload": {"add": 1}}',
    b'{"v": 1, "kind": "proposal", "table": "a", "run": "r", "counter": 1, "epoch": "E", "seat": 2,'
    b' "payload": {"add": 1}, "extra": 0}',
    b'{"v": 1, "kind": "proposal", "table": "a", "run": "r", "counter": 1, "epoch": "E", "seat": 2,'
    b' "payload": "' + b"x" * 65500 + b'"}',  # over 64 KB, under the broker's packet limit
])
def test_a_malformed_message_is_refused_and_changes_nothing(broker: Broker, payload: bytes) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            data = payload.replace(b'"E"', json.dumps(t.host.epoch).encode())
            topics = t.host.topics
            async with aiomqtt.Client("127.0.0.1", broker.port) as raw:  # sealed, so only the checks refuse
                await raw.publish(topics.propose("a"), t.a.seal(topics.propose("a"), data), qos=1)
                await raw.publish(topics.to("a"), t.host.seal(topics.to("a"), data), qos=1)
            await until(lambda: t.seen["host"].refusals() and t.seen["a"].refusals(), "refusals")
            assert f"refused a message on {topics.propose('a')}" in t.seen["host"].refusals()[0].reason
            assert t.game.calls == [] and t.host.last_n == 0 and t.seen["a"].entries() == []
            assert (await t.a.propose(2, {"add": 4})).n == 1  # the room goes on
    run(play())


def test_a_spectator_sees_public_parts_only_and_catches_up_late(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            await t.a.propose(2, {"add": 1})
            await t.host.append({"deal": 1}, {"a": "secret a", "b": "secret b"})
            spectator = SpectatorRoom(broker.url(), "watcher", on_event=(seen := Seen()), **FAST)
            async with spectator:
                await until(lambda: len(seen.entries()) == 2, "catch-up to the spectator")
                await t.b.propose(3, {"add": 2})
                await until(lambda: len(seen.entries()) == 3, "a live entry to the spectator")
                assert public_log(seen.entries()) == public_log(t.seen["host"].host_entries())
                assert all(entry.private is None for entry in seen.entries())
                with pytest.raises(PermissionError):
                    await spectator.propose(2, {"add": 1})
                assert "joined" in t.seen["host"].presence("watcher")
    run(play())


def test_a_new_game_starts_a_new_epoch_counted_from_one(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            old = t.host.epoch
            assert (await t.a.propose(2, {"add": 1})).n == 1
            new = await t.host.new_game(game="adder", players=3, seats={"host": [1]}, claimable=[2])
            await until(lambda: t.a.epoch == new != old, "the new epoch at table a")
            fresh = await t.a.propose(2, {"add": 2})
            assert fresh.ok and fresh.n == 1
            await until(lambda: len(t.seen["a"].entries()) == 2, "entry 1 of the new game")
            assert [(e.epoch, e.n) for e in t.seen["a"].entries()] == [(old, 1), (new, 1)]
            changes = [e.new_epoch for e in t.seen["a"].events if isinstance(e, RoomChange)]
            assert changes[0] and changes[-1] and True in changes[1:]
            # the tables here claimed again: a's seat is open in the new game, b's is not
            assert t.host.record is not None and t.host.record.seats == {"host": (1,), "a": (2,)}
            assert "seat 3 is not open to remote tables" in t.seen["b"].refusals()[-1].reason
            assert t.b.seats == ()
            assert not (await t.b.propose(3, {"add": 1})).ok
    run(play())
