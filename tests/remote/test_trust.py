"""Remote play on a broker that protects nothing (mosquitto with allow_anonymous true and no
ACL): what another subscriber learns, forged and spoofed messages, catch-up floods, oversized
messages, a wrong room key, an impostor with the room's key."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from botboard.remote.limits import BURST, RATE
from botboard.remote.local_broker import Broker
from botboard.remote.protocol import CatchUp, Entry, Proposal, encode
from botboard.remote.room import JoinedRoom
from botboard.remote.seal import Identity, Seal, room_key

from .. import patience
from .helpers import TOPICS, FAST, Seen, run, three_tables, until
from .test_two_tables import _play_with, _same_game
from .two_tables import two_tables



class Spy:
    """Another subscriber of the whole room, with no key: keeps every message it gets."""

    def __init__(self, broker: Broker) -> None:
        self.client = aiomqtt.Client("127.0.0.1", broker.port)
        self.messages: list[tuple[str, bytes]] = []
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Spy:
        await self.client.__aenter__()
        await self.client.subscribe(TOPICS.base + "/#", qos=1)
        self._task = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for message in self.client.messages:
            self.messages.append((message.topic.value, bytes(message.payload)))

    async def __aexit__(self, *exc: Any) -> None:
        assert self._task is not None
        self._task.cancel()
        await self.client.__aexit__(*exc)

    def on(self, channel: str) -> list[bytes]:
        return [data for topic, data in self.messages if topic.startswith(f"{TOPICS.base}/{channel}")]


def _texts(doc: Any) -> set[str]:
    """Every string and number in a JSON document (a hand's cards, a program's tiles, an agenda)."""
    if isinstance(doc, dict):
        return set().union(*(_texts(v) | {str(k)} for k, v in doc.items())) if doc else set()
    if isinstance(doc, list):
        return set().union(*map(_texts, doc)) if doc else set()
    return {str(doc)} if doc is not None else set()


SECRETS = {  # game: (options, a word its private views hold)
    "botwars": ({"max_turns": 2}, "hand"),
    "goblins": ({"rounds": 1}, "agenda"),  # one round: its agendas dealt and kept
}


async def _spied_game(where: Path, game: str) -> None:
    """A whole game across two tables, on a broker of its own with a spy on it: the spy learns
    none of the private views' words."""
    options, secret = SECRETS[game]
    broker = Broker(where)
    broker.start()
    try:
        async with Spy(broker) as spy:
            async with two_tables(broker, where, game, 2, (0,), (1,), options) as tables:
                private = [tables.host.session.seat_view(seat)["private"] for seat in (0, 1)]
                await tables.hands().play()
                assert tables.host.session.mode == "over"
                private += [tables.host.session.seat_view(seat)["private"] for seat in (0, 1)]
            await patience.aquiet(0.3)  # the last messages reach the spy
    finally:
        broker.stop()
    assert secret in json.dumps(private)  # the game does have the secret this test looks for
    assert spy.on("to/b") and spy.on("propose/b") and spy.on("entries")  # the spy heard the game
    words = {w for w in _texts(private) if len(w) >= 6}
    assert words
    for topic, data in spy.messages:
        assert not data.lstrip().startswith(b"{"), f"{topic} carries JSON in clear"
        leaked = [w for w in words if w.encode() in data]
        assert not leaked, f"{topic} carries {leaked} in clear"


@pytest.fixture(scope="module")
def spied(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BaseException | None]:
    """Both games spied on at once (each its own broker, daemons and boards); what each raised."""
    async def both() -> list[BaseException | None]:
        return list(await asyncio.gather(*(_spied_game(tmp_path_factory.mktemp(game), game)
                                           for game in SECRETS), return_exceptions=True))

    return dict(zip(SECRETS, asyncio.run(both())))


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game", list(SECRETS))
def test_a_subscriber_without_the_key_learns_no_hand_program_or_agenda(
        spied: dict[str, BaseException | None], game: str) -> None:
    if spied[game] is not None:
        raise spied[game]  # type: ignore[misc]


@pytest.mark.timeout(600)
def test_a_forged_entry_and_a_spoofed_proposal_are_refused_logged_and_the_game_ends_the_same(
        broker: Broker, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="botboard.remote")
    forged: list[int] = []

    async def forge(tables: Any, hands: Any) -> None:
        room = tables.host.remote.room
        n = room.last_n + 1
        # a member of the room: it knows the room key, and has keys of its own, not the host's
        member = Seal(room_key("club", broker.url().key), Identity.fresh(), "a")
        member.pin("b", tables.joined.remote.room._seal.identity.public)
        member.learn("b", tables.joined.remote.room._seal.ephemeral)  # in b's presence record
        entry = encode(Entry(room.epoch, n, "a", {"events": [{"kind": "game", "text": "FORGED: blue forfeits"}]}))
        proposal = encode(Proposal("b", "spoof", 1, room.epoch, 1, {"press": "confirm"}))
        async with aiomqtt.Client("127.0.0.1", broker.port) as rogue:
            await rogue.publish(TOPICS.to("b"), member.seal(TOPICS.to("b"), "to", "b", entry), qos=1)
            await rogue.publish(TOPICS.to("b"), entry, qos=1)  # and in clear
            await rogue.publish(TOPICS.propose("b"), member.seal(TOPICS.propose("b"), "propose", "b", proposal),
                                qos=1)
            await rogue.publish(TOPICS.propose("b"), proposal, qos=1)
        forged.append(n)

    async def play() -> None:
        async with two_tables(broker, tmp_path, "botwars", 2, (0,), (1,), {"max_turns": 2}) as tables:
            await _play_with(tables, forge, after=2)
            assert tables.host.session.mode == "over"
            await until(lambda: tables.joined.session.state.get("phase") == "over", "the end at b", 30)
            _same_game(tmp_path, tables.host.session)  # entry n is the host's real one at b

    asyncio.run(play())
    # each refusal logged once, by the room that refused: not again by its table, by any logger
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage().lower()]
    assert len([m for m in refused if "/to/b" in m]) == 2 and len([m for m in refused if "/propose/b" in m]) == 2, \
        refused
    assert forged and not any("FORGED" in json.dumps(e.public) for e in _joined_entries(tmp_path))


def _joined_entries(tmp_path: Path) -> list[Entry]:
    from botboard.remote.record import EntryStore

    store = EntryStore(tmp_path / "b" / "room-club.sqlite")
    return store.seen(store.meta()["epoch"])


def test_300_catch_up_requests_get_a_bounded_answer(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t, Spy(broker) as spy:
            for k in range(40):
                await t.host.append({"tick": k})
            await until(lambda: len(t.seen["a"].entries()) == 40, "40 entries at a")
            await patience.aquiet(0.3)  # the answers so far counted before the flood
            before = len(spy.on("to/a"))
            started = asyncio.get_running_loop().time()
            async with aiomqtt.Client("127.0.0.1", broker.port) as flood:  # sent with a's own keys
                for k in range(300):
                    first = 1 if k < 150 else k  # the same request again and again, then ever other ones
                    # fresh requests of a's own run: the limit, not freshness, bounds these
                    request = CatchUp("a", t.host.epoch, first, t.a.run, 1000 + k)
                    data = t.a.seal(TOPICS.catchup("a"), encode(request))
                    await flood.publish(TOPICS.catchup("a"), data, qos=1)
            await patience.aquiet(1.0)  # answers to the flood arrive; the bound below grows with the time
            elapsed = asyncio.get_running_loop().time() - started
            answers = len(spy.on("to/a")) - before
            # docs/remote-play.md: per table at most (BURST + RATE x seconds) answers, each at most
            # the entries asked for (capped at 256) and one CaughtUp
            assert answers <= (BURST + RATE * elapsed) * (40 + 1)
            assert answers < 300
            assert (await t.a.propose(2, {"add": 1})).n == 41  # the room goes on
    run(play(), timeout=60)


def test_an_oversized_message_is_refused_before_it_is_read(tmp_path: Path) -> None:
    broker = Broker(tmp_path, max_packet=None)  # a broker that sets no limit of its own
    broker.start()

    async def play() -> None:
        async with three_tables(broker) as t:
            big = t.a.seal(TOPICS.propose("a"), encode(Proposal("a", "r", 1, t.host.epoch, 2, {"add": 1}))
                           + b" " * 2_000_000)
            async with aiomqtt.Client("127.0.0.1", broker.port) as raw:
                await raw.publish(TOPICS.propose("a"), big, qos=1)
            assert (await t.a.propose(2, {"add": 3})).n == 1  # what came after it arrived
            assert t.seen["host"].refusals() == []  # it never reached the host, not even to be refused
    try:
        run(play())
    finally:
        broker.stop()


def test_a_table_with_a_wrong_room_key_is_told_so(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            seen = Seen()
            async with JoinedRoom(broker.url(key="not the room's key"), "c", seats=[3], on_event=seen, **FAST):
                await until(lambda: any(r.key for r in seen.refusals()), "the wrong key noticed")
                refusal = next(r for r in seen.refusals() if r.key)
                assert "room key" in refusal.reason and "ask the host table for its link" in refusal.reason
                assert seen.entries() == [] and t.host.record is not None and "c" not in t.host.record.seats
    run(play())


def test_a_member_of_the_room_cannot_take_over_another_tables_seat(broker: Broker) -> None:
    async def play() -> None:
        async with three_tables(broker) as t:
            # the room's key and table a's name, but other keys: the host pinned a's when a joined
            impostor = JoinedRoom(broker.url(), "a", seats=[2], identity=Identity.fresh(), **FAST)
            impostor.record = t.host.record  # as a member reads it
            impostor._seal.pin("host", t.host._seal.identity.public)
            impostor._seal.learn("host", t.host._seal.ephemeral)  # in the room record
            hello = impostor.seal(TOPICS.presence("a"), encode(impostor._presence("here")))
            proposal = impostor.seal(TOPICS.propose("a"), encode(Proposal("a", "imp", 1, t.host.epoch, 2,
                                                                          {"add": 9})))
            async with aiomqtt.Client("127.0.0.1", broker.port) as raw:
                await raw.publish(TOPICS.presence("a"), hello, qos=1)
                await raw.publish(TOPICS.propose("a"), proposal, qos=1)
            await until(lambda: len(t.seen["host"].refusals()) == 2, "both refused")
            reasons = [r.reason for r in t.seen["host"].refusals()]
            assert "announced other keys" in reasons[0] and "/propose/a" in reasons[1]
            assert t.game.calls == []
            assert (await t.a.propose(2, {"add": 1})).n == 1  # the real table a still plays
    run(play())


@pytest.mark.timeout(120)
def test_a_joined_table_with_a_wrong_key_in_its_link_says_so_to_its_players(broker: Broker, tmp_path: Path) -> None:
    from .two_tables import start, stop, table_daemon

    async def play() -> None:
        host = table_daemon(broker, tmp_path, "a", "botwars", (0,), 2, options={"max_turns": 1})
        joined = table_daemon(broker, tmp_path, "b", "botwars", (1,), key="aWrongKeyOf22Characters")
        tasks = [await start(host), await start(joined)]
        try:
            await until(lambda: "cannot read the room club" in joined.session.view()["message"],
                        "the joined table to say why it sees no game", 60)
            assert "ask the host table for its link" in joined.session.view()["message"]
            assert joined.session.state is None  # nothing of the game reached it
        finally:
            for task in tasks:
                await stop(task)

    asyncio.run(play())
