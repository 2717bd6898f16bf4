"""The trust model with a broker that checks users and ACLs (the mosquitto setup of
docs/remote-play.md): a table never receives another table's private parts, and cannot
speak for another table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import aiomqtt
import pytest

from botboard.remote.protocol import Proposal, encode
from botboard.remote.room import HostRoom, JoinedRoom

from botboard.remote.local_broker import Broker
from .. import patience
from .helpers import TOPICS, FAST, Adder, Seen, run, until

USERS = {"host": "host-pw", "a": "a-pw", "b": "b-pw"}
# per-room ACL: %u is the user name, which is the table id
ACL = """\
pattern read botboard/v2/club/+/room
pattern read botboard/v2/club/+/entries
pattern read botboard/v2/club/+/presence/+
pattern write botboard/v2/club/+/presence/%u
pattern write botboard/v2/club/+/propose/%u
pattern write botboard/v2/club/+/catchup/%u
pattern read botboard/v2/club/+/to/%u

user host
topic readwrite botboard/v2/club/#
"""


@pytest.fixture
def acl_broker(tmp_path: Path) -> Iterator[Broker]:
    broker = Broker(tmp_path, users=USERS, acl=ACL)
    broker.start()
    yield broker
    broker.stop()


def test_a_table_reads_only_its_own_private_parts_and_speaks_only_for_itself(acl_broker: Broker) -> None:
    def url(user: str):  # type: ignore[no-untyped-def]
        return acl_broker.url(user=user, password=USERS[user])

    async def play() -> None:
        game, seen = Adder(), {name: Seen() for name in ("host", "a", "b")}
        host = HostRoom(url("host"), "host", accept=game, game="adder", players=3, seats={"host": [1]},
                        claimable=[2, 3], on_event=seen["host"], **FAST)
        a = JoinedRoom(url("a"), "a", seats=[2], on_event=seen["a"], **FAST)
        b = JoinedRoom(url("b"), "b", seats=[3], on_event=seen["b"], **FAST)
        async with host, a, b, aiomqtt.Client("127.0.0.1", acl_broker.port, username="a",
                                              password=USERS["a"]) as spy:
            await spy.subscribe("botboard/v2/club/#", qos=1)
            await spy.subscribe(TOPICS.to("b"), qos=1)
            await until(lambda: a.seats == (2,) and b.seats == (3,), "seats granted")
            await host.append({"deal": 1}, {"a": "hand of a", "b": "hand of b"})
            assert (await b.propose(3, {"add": 5})).ok
            # table a's user speaking for b: on b's topic the broker drops it; on a's, the host refuses it
            # (sealed with a's keys: the ACL is what this test checks, the seal comes on top)
            forged = encode(Proposal("b", "forged", 1, host.epoch, 3, {"add": 99}))
            await spy.publish(TOPICS.propose("b"), a.seal(TOPICS.propose("b"), forged), qos=1)
            await spy.publish(TOPICS.propose("a"), a.seal(TOPICS.propose("a"), forged), qos=1)
            await until(lambda: len(seen["a"].entries()) == 2 == len(seen["b"].entries()), "2 entries")
            await until(lambda: seen["host"].refusals(), "the forged proposal refused")
            await patience.aquiet(0.3)  # anything else the spy might get
            spied = []
            while len(spy.messages):
                message = await anext(spy.messages)
                spied.append((message.topic.value, bytes(message.payload)))
        assert [e.private for e in seen["a"].entries()] == ["hand of a", None]
        assert [e.private for e in seen["b"].entries()] == ["hand of b", {"echo": 5}]
        assert game.calls == [("b", 3, {"add": 5})]
        assert "sent on" in seen["host"].refusals()[0].reason
        assert TOPICS.to("a") in {topic for topic, _ in spied}  # the spy does receive a's own inbox
        assert not [topic for topic, _ in spied if topic.startswith(TOPICS.base + "/to/b")]
        assert not [topic for topic, _ in spied if topic.startswith(TOPICS.base + "/propose/")]
        assert all(b"hand of b" not in payload and b"echo" not in payload for _, payload in spied)
    run(play())


def test_a_client_without_a_password_is_turned_away(acl_broker: Broker) -> None:
    async def connect() -> None:
        with pytest.raises(aiomqtt.MqttError):
            async with aiomqtt.Client("127.0.0.1", acl_broker.port):
                pass
    run(connect())
