"""Faults through a real mosquitto: early entries, a broker killed mid-game, a table's
process killed and restarted, a table that drops (its last will)."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path
from typing import Any

import aiomqtt

from botboard.remote.events import LinkChange
from botboard.remote.protocol import CatchUp, Entry, Proposal, decode, encode
from botboard.remote.room import HostRoom, JoinedRoom, MemoryRecord
from botboard.remote.seal import Identity
from botboard.remote.table_keys import identity as table_identity

from botboard.remote.local_broker import Broker
from .. import patience
from .helpers import TOPICS, FAST, Adder, Seen, opened, public_log, run, three_tables, until

ROOT = Path(__file__).resolve().parents[2]


async def next_catchup(client: aiomqtt.Client, host: HostRoom) -> tuple[str, str, int]:
    """(table, epoch, first) of the next catch-up request."""
    async for message in client.messages:
        found = decode(opened(host, message), (CatchUp,))
        assert isinstance(found, CatchUp)
        return found.table, found.epoch, found.first
    raise AssertionError("no catch-up request")


def test_early_entries_wait_for_the_missing_one_which_is_asked_for(broker: Broker) -> None:
    # a host never started: its keys seal what the raw client sends as the host
    host = HostRoom(broker.url(), "host", accept=Adder(), game="adder", players=2,
                    seats={"host": [1], "a": [2]}, epoch="E1")

    def entry(n: int, epoch: str = "E1") -> bytes:
        return host.seal(TOPICS.to("a"), encode(Entry(epoch, n, "host", {"step": n})))

    async def play() -> None:
        async with aiomqtt.Client("127.0.0.1", broker.port) as fake_host:
            await fake_host.subscribe(TOPICS.catchup(), qos=1)
            assert host.record is not None
            await fake_host.publish(TOPICS.room, host.seal(TOPICS.room, encode(host.record)), qos=1, retain=True)
            seen = Seen()
            table = JoinedRoom(broker.url(), "a", seats=[2], on_event=seen, **FAST)
            host._seal.pin("a", table._seal.identity.public)
            host._seal.learn("a", table._seal.ephemeral)
            async with table:
                assert await next_catchup(fake_host, host) == ("a", "E1", 1)
                for n in (3, 1, 4):
                    await fake_host.publish(TOPICS.to("a"), entry(n), qos=1)
                assert await next_catchup(fake_host, host) == ("a", "E1", 2)  # the gap, asked once
                await until(lambda: len(seen.entries()) == 1, "entry 1")
                for n in (2, 1, 3, 2):  # the missing one, then entries already applied
                    await fake_host.publish(TOPICS.to("a"), entry(n), qos=1)
                await until(lambda: len(seen.entries()) == 4, "entries 2-4")
                await patience.aquiet(0.2)  # none applied twice
                assert [e.n for e in seen.entries()] == [1, 2, 3, 4]
                await fake_host.publish(TOPICS.to("a"), entry(5, "OTHER"), qos=1)
                await fake_host.publish(TOPICS.to("a"), entry(5), qos=1)
                await until(lambda: len(seen.entries()) == 5, "entry 5")
                assert seen.entries()[-1].public == {"step": 5}  # another game's entry 5 was dropped
    run(play())


def test_a_broker_killed_mid_game_loses_no_entry_and_applies_none_twice(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            async def table_a_plays() -> None:
                for k in range(20):
                    assert (await t.a.propose(2, {"add": k})).ok
                    await asyncio.sleep(0.02)  # pace: a player's moves

            async def host_plays() -> None:
                for k in range(20):
                    await t.host.append({"tick": k}, {"b": f"secret {k}"})
                    await asyncio.sleep(0.02)  # pace: the host's entries

            playing = asyncio.gather(table_a_plays(), host_plays())
            await until(lambda: t.host.last_n >= 8, "the game under way")
            broker.kill()
            await asyncio.sleep(0.3)  # pace: the broker down a while
            broker.start()
            await playing
            await until(lambda: len(t.seen["a"].entries()) == 40 == len(t.seen["b"].entries()),
                        "every entry at both tables", timeout=8)
            record = public_log(t.seen["host"].host_entries())
            assert [n for n, _ in record] == list(range(1, 41))
            assert public_log(t.seen["a"].entries()) == record == public_log(t.seen["b"].entries())
            assert sorted(payload["add"] for _, _, payload in t.game.calls) == list(range(20))  # once each
            assert [e.private for e in t.seen["b"].entries() if "tick" in e.public] == [
                f"secret {k}" for k in range(20)]
            for name in ("a", "b"):
                links = [e.up for e in t.seen[name].events if isinstance(e, LinkChange)]
                assert links[:3] == [True, False, True]
    run(play())


class TableProcess:
    """Joined table "a" (seat 2) in a process of its own, printing what it applies."""

    def __init__(self, broker: Broker, keys: Path) -> None:
        self.broker = broker
        self.keys = keys  # the table's keys, kept across its restarts as the daemon keeps them
        self.entries: list[dict[str, Any]] = []

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.remote.table_proc", str(self.broker.port), "a", "2", str(self.keys),
            cwd=ROOT, stdout=asyncio.subprocess.PIPE)
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for line in self.process.stdout:
            self.entries.append(json.loads(line))

    async def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await self._reader


def host_and_b(broker: Broker) -> tuple[HostRoom, JoinedRoom, Seen]:
    seen_b = Seen()
    host = HostRoom(broker.url(), "host", accept=Adder(), game="adder", players=3, seats={"host": [1]},
                    claimable=[2, 3], **FAST)
    return host, JoinedRoom(broker.url(), "b", seats=[3], on_event=seen_b, **FAST), seen_b


def test_a_killed_table_restarts_and_catches_up_from_its_last_entry(broker: Broker, tmp_path: Path) -> None:
    async def play() -> None:
        host, b, _ = host_and_b(broker)
        async with host, b:
            table = TableProcess(broker, tmp_path / "a.keys")
            await table.start()
            await until(lambda: host.record is not None and host.record.seats.get("a") == (2,),
                        "table a's seat", timeout=8)
            for k in range(5):
                await host.append({"step": k})
            await until(lambda: len(table.entries) == 5, "5 entries in the table's process")
            await table.kill()
            for k in range(5, 9):
                await host.append({"step": k}, {"a": f"for a {k}"})
            seen = Seen()
            last = table.entries[-1]
            restarted = JoinedRoom(broker.url(), "a", seats=[2], epoch=last["epoch"], last_n=last["n"],
                                   on_event=seen, identity=table_identity(table.keys), **FAST)
            async with restarted:
                await until(lambda: len(seen.entries()) == 4, "the missed entries")
                await host.append({"step": 9})
                await until(lambda: len(seen.entries()) == 5, "a live entry")
                await patience.aquiet(0.2)  # none applied twice
            assert [(e.n, e.public["step"], e.private) for e in seen.entries()] == [
                (6, 5, "for a 5"), (7, 6, "for a 6"), (8, 7, "for a 7"), (9, 8, "for a 8"), (10, 9, None)]
    run(play())


def test_a_table_that_drops_is_shown_gone_by_its_last_will_then_back(broker: Broker, tmp_path: Path) -> None:
    async def play() -> None:
        host, b, seen_b = host_and_b(broker)
        async with host, b:
            table = TableProcess(broker, tmp_path / "a.keys")
            await table.start()
            await until(lambda: seen_b.presence("a") == ["joined"], "table a joined", timeout=8)
            await table.kill()
            await until(lambda: seen_b.presence("a") == ["joined", "gone"], "table a gone")
            late = Seen()  # a table that comes later reads the retained record: gone
            async with JoinedRoom(broker.url(), "c", on_event=late, **FAST):
                await until(lambda: late.presence("a") == ["gone"], "a gone for a late table")
            await table.start()
            await until(lambda: seen_b.presence("a") == ["joined", "gone", "back"], "table a back", timeout=8)
            await table.kill()
    run(play())


def test_a_restarted_host_goes_on_from_its_record_and_still_applies_each_proposal_once(broker: Broker) -> None:
    async def play() -> None:
        record, game, seen_a, keys = MemoryRecord(), Adder(), Seen(), Identity.fresh()

        def host_room(**resume: Any) -> HostRoom:  # the same keys, as the daemon keeps them
            return HostRoom(broker.url(), "host", accept=game, game="adder", players=2,
                            seats={"host": [1], "a": [2]}, record=record, identity=keys, **resume, **FAST)

        first = host_room()
        a = JoinedRoom(broker.url(), "a", seats=[2], on_event=seen_a, **FAST)
        async with a:
            async with first:
                assert (await a.propose(2, {"add": 1})).n == 1
                await first.append({"deal": 1})
            epoch, last_n = first.epoch, first.last_n
            # the host is gone; a's proposal waits, and a duplicate of the first comes from a raw client
            waiting = asyncio.create_task(a.propose(2, {"add": 2}))
            async with host_room(epoch=epoch, last_n=last_n) as second:
                assert (await waiting).n == 3
                async with aiomqtt.Client("127.0.0.1", broker.port) as raw:
                    await raw.publish(TOPICS.propose("a"), a.seal(TOPICS.propose("a"), encode(
                        Proposal("a", a.run, 1, epoch, 2, {"add": 1}))), qos=1)
                await second.append({"deal": 2})
                await until(lambda: len(seen_a.entries()) == 4, "4 entries")
            assert [e.public for e in seen_a.entries()] == [
                {"seat": 2, "add": 1}, {"deal": 1}, {"seat": 2, "add": 2}, {"deal": 2}]
            assert [payload["add"] for _, _, payload in game.calls] == [1, 2]
    run(play())
