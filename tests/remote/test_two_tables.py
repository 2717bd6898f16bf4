"""Remote play at the table: two daemons with two simulated boards play whole games through a
real mosquitto; what each table shows, and what it must not be told."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from botboard.remote.protocol import Proposal, decode
from botboard.remote.record import EntryStore

from botboard.remote.local_broker import Broker
from .test_no_going_back import Stranger
from .two_tables import two_tables, until

pytestmark = pytest.mark.timeout(600)


WHOLE_GAMES = {
    "twin-tin-bots": (2, {"track": 0}),
    "botwars": (2, {"max_turns": 2}),
    "volt": (2, {"max_rounds": 2}),
    "goblins": (2, {"rounds": 1}),  # one round: the short game
}


async def _whole_game(where: Path, game: str) -> None:
    """A whole game across two tables, on a broker of its own; what both tables end with."""
    players, options = WHOLE_GAMES[game]
    broker = Broker(where)
    broker.start()
    try:
        async with two_tables(broker, where, game, players, (0,), (1,), options) as tables:
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
            seen = EntryStore(where / "b" / "room-club.sqlite")
            entries = seen.seen(seen.meta()["epoch"])
            assert [e.n for e in entries] == list(range(1, len(entries) + 1))  # each once, in order
            hashes = _action_hashes(entries)
            assert hashes == [a["state_hash"] for a in actions]  # every action, same order, same hash
    finally:
        broker.stop()


@pytest.fixture(scope="module")
def whole_games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BaseException | None]:
    """Every game's whole game across two tables, all at once (each its own broker, daemons
    and boards: they mostly wait for their boards and each other); what each raised."""
    async def all_games() -> list[BaseException | None]:
        return list(await asyncio.gather(*(_whole_game(tmp_path_factory.mktemp(game), game)
                                           for game in WHOLE_GAMES), return_exceptions=True))

    return dict(zip(WHOLE_GAMES, asyncio.run(all_games())))


@pytest.mark.parametrize("game", list(WHOLE_GAMES))
def test_a_whole_game_across_two_tables(whole_games: dict[str, BaseException | None], game: str) -> None:
    if whole_games[game] is not None:
        raise whole_games[game]  # type: ignore[misc]


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


def _entries(where: Path, name: str) -> list:
    seen = EntryStore(where / name / "room-club.sqlite")
    return seen.seen(seen.meta()["epoch"])


def _action_hashes(entries: list) -> list[str]:
    return [event["state_hash"] for e in entries if isinstance(e.public, dict)
            for event in e.public.get("events", []) if event.get("event") == "action"]


def _actions(session) -> int:
    return len(session.journal.actions(session.game_id))


async def _play_with(tables, fault, after: int = 3) -> None:
    """Hands play the game; ``fault(tables)`` strikes once ``after`` actions are in."""
    hands = tables.hands()
    game = asyncio.create_task(hands.play())
    await until(lambda: _actions(tables.host.session) >= after or game.done(), 120, "the first actions")
    assert not game.done(), "the game ended before the fault"
    await fault(tables, hands)
    try:
        await asyncio.wait_for(game, 300)
    except asyncio.TimeoutError:
        raise AssertionError(f"the game did not end; the host says: {tables.host.session.message}; "
                             f"the joined table: {tables.joined.session.view().get('message')}") from None


def _same_game(tmp_path: Path, host_session) -> None:
    entries = _entries(tmp_path, "b")
    assert [e.n for e in entries] == list(range(1, len(entries) + 1))  # none lost, none twice
    assert _action_hashes(entries) == [a["state_hash"] for a in host_session.journal.actions(host_session.game_id)]


def test_a_broker_restart_mid_game_loses_nothing(broker: Broker, tmp_path: Path) -> None:
    async def restart_broker(tables, hands) -> None:
        broker.kill()
        await asyncio.sleep(1.0)  # pace: the broker down a while
        broker.start()

    async def play() -> None:
        async with two_tables(broker, tmp_path, "botwars", 2, (0,), (1,), {"max_turns": 3}) as tables:
            await _play_with(tables, restart_broker)
            assert tables.host.session.mode == "over"
            await until(lambda: tables.joined.session.state.get("phase") == "over", 30, "the end at b")
            _same_game(tmp_path, tables.host.session)

    asyncio.run(play())


def test_a_joined_tables_inputs_go_out_without_waiting_for_the_answers_before_them(
        broker: Broker, tmp_path: Path) -> None:
    # issue 42: the joined table sent one input at a time, each waiting for its answer, so one
    # answer a busy broker dropped held every later input back
    async def play() -> None:
        async with Stranger(broker) as spy, two_tables(broker, tmp_path, "botwars", 2, (0,), (1,),
                                                  {"max_turns": 1}) as tables:
            host = tables.host.remote.room
            await host.close()  # the host answers nothing from now on: every answer is late
            topic = host.topics.propose("b")

            def sent() -> set[int]:  # the inputs on their way, as the host would read them
                return {decode(host._seal.open(topic, "propose", "b", data)[1], (Proposal,)).payload["value"]
                        for data in spy.on(topic)}

            for k in range(3):
                tables.joined.remote.propose(1, {"control": "probe", "value": k})
            await until(lambda: sent() == {0, 1, 2}, 10, "all three inputs sent, none waiting for an answer")

    asyncio.run(play())


def test_a_joined_table_restarted_mid_game_catches_up(broker: Broker, tmp_path: Path) -> None:
    from botboard.session.selfplay import Place

    from .two_tables import start, stop, table_daemon

    async def restart_joined(tables, hands) -> None:
        said = tables.host.subscribe()  # every word the host says: its game goes on meanwhile,
        heard: list[str] = []  # and its next message may replace this one before a poll sees it
        await stop(tables.tasks["b"])

        def gone() -> bool:
            while not said.empty():
                heard.append(str(said.get_nowait().get("text", "")))
            return any("table b (blue) is gone" in text for text in heard)

        await until(gone, 20, "the host to say table b is gone")
        tables.host.unsubscribe(said)
        joined = table_daemon(broker, tmp_path, "b", "twin-tin-bots", (1,))
        tables.tasks["b"] = await start(joined)
        tables.joined = joined
        await until(lambda: joined.conn.state == "connected" and 1 in joined.session.seat_views, 30,
                    "the restarted table to show its seat")
        hands.places[1] = Place(joined.conn, joined.sim_control, joined.session)
        joined.conn.listeners.append(hands._hear)

    async def play() -> None:
        # the shortest track: the restart comes after two actions, and the game still has its end
        # to play at both tables after it (track 1 played a longer game to show the same)
        async with two_tables(broker, tmp_path, "twin-tin-bots", 2, (0,), (1,), {"track": 0}) as tables:
            await _play_with(tables, restart_joined, after=2)
            await until(lambda: tables.joined.session.state.get("phase") == "over", 30, "the end at b")
            await until(lambda: tables.joined.conn.image.cells == tables.host.conn.image.cells, 20,
                        "the same picture on both boards")
            _same_game(tmp_path, tables.host.session)

    asyncio.run(play())


def test_a_spectator_sees_the_public_game_only(broker: Broker, tmp_path: Path) -> None:
    from .two_tables import start, stop
    from botboard.daemon import Daemon, DaemonConfig

    async def play() -> None:
        async with two_tables(broker, tmp_path, "botwars", 2, (0,), (1,), {"max_turns": 1}) as tables:
            watcher = Daemon(DaemonConfig(game="botwars", console_port=0, data_dir=str(tmp_path / "s"),
                                          remote=tables.host.remote_url.link(), spectate=True,
                                          table="watcher", step_s=0.0))
            task = await start(watcher)
            try:
                await until(lambda: watcher.session.state is not None, 20, "the spectator's view")
                view = watcher.session.view()
                assert view["remote"]["seats"] == [] and view.get("phase") == tables.host.session.view()["phase"]
                for seat in (0, 1):
                    with pytest.raises(ValueError):
                        watcher.session.seat_view(seat)
                with pytest.raises(Exception, match="another table"):
                    watcher.session.press(0, "confirm")
                entries = _entries(tmp_path, "s")
                assert entries and all(e.private is None for e in entries)
                hand = tables.host.session.seat_view(0)["private"]["hand"]
                text = json.dumps([e.public for e in entries])
                assert not any(f'"{card}"' in text for card in hand)
            finally:
                await stop(task)

    asyncio.run(play())


def test_the_host_restarted_mid_game_resumes_the_room(broker: Broker, tmp_path: Path) -> None:
    from .two_tables import start, stop, table_daemon

    async def play() -> None:
        async with two_tables(broker, tmp_path, "botwars", 2, (0,), (1,), {"max_turns": 3}) as tables:
            hands = tables.hands()
            game = asyncio.create_task(hands.play())
            await until(lambda: _actions(tables.host.session) >= 3, 120, "the first actions")
            await stop(game)
            epoch = tables.host.remote.room.epoch
            await stop(tables.tasks["a"])
            host = table_daemon(broker, tmp_path, "a", "botwars", (0,), 2, options={"max_turns": 3}, seed=1)
            tables.tasks["a"] = await start(host)
            tables.host = host
            await until(lambda: host.conn.state == "connected", 30, "the host's board again")
            assert host.remote.room.epoch == epoch  # the same game goes on, not a new one
            await asyncio.wait_for(tables.hands().play(), 300)
            assert host.session.mode == "over"
            await until(lambda: tables.joined.session.state.get("phase") == "over", 30, "the end at b")
            _same_game(tmp_path, host.session)

    asyncio.run(play())
