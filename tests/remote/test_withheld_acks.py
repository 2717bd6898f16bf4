"""The host never waits for the broker's acknowledgement of its room record while the game goes on.

A flooded mosquitto drops what it owes a client, PUBACKs included (docs/remote-play.md, "A busy
broker"); a publish whose PUBACK never comes waits for its timeout (10 s, stretched by the
load). The host publishes its room record at QoS 1 whenever the seats change (a table joins);
while it waited for that PUBACK it read no proposal and sent no entry, every table's game
stalled. Here a relay between the host and the real mosquitto holds the PUBACKs back
(ack_holder.py) as a table joins in the middle of play.
"""

from __future__ import annotations

import asyncio
import dataclasses

from botboard.remote.local_broker import Broker
from botboard.remote.room import HostRoom, JoinedRoom

from .ack_holder import AckHolder
from .helpers import FAST, Adder, Seen, run, until


def test_a_withheld_acknowledgement_stalls_neither_proposals_nor_entries(broker: Broker) -> None:
    async def play() -> None:
        seen_a = Seen()
        async with AckHolder(broker.port) as relay:
            host = HostRoom(dataclasses.replace(broker.url(), port=relay.port), "host", accept=Adder(),
                            game="adder", players=3, seats={"host": [1]}, claimable=[2, 3], **FAST)
            a = JoinedRoom(broker.url(), "a", seats=[2], on_event=seen_a, **FAST)
            late = JoinedRoom(broker.url(), "c", seats=[3], **FAST)
            async with host, a:
                await until(lambda: a.seats == (2,), "table a's seat")
                assert (await a.propose(2, {"add": 1})).n == 1
                relay.holding = True  # from now on the broker's PUBACKs to the host do not come
                async with late:  # a table joins: the host publishes its room record, unacknowledged
                    await until(lambda: "c" in host.presence and late.seats == (3,), "table c's seat")
                    await until(lambda: relay.held >= 1, "the room record's acknowledgement held")
                    # the game goes on meanwhile: the host reads proposals and sends entries
                    answer = a.submit(2, {"add": 2})
                    own = asyncio.ensure_future(host.append({"tick": 1}))
                    await until(lambda: answer.done() and own.done(), "table a's proposal answered and the "
                                "host's own entry made", timeout=3)
                    await until(lambda: len(seen_a.entries()) == 3, "every entry at table a", timeout=3)
                    assert {answer.result().n, own.result().n} == {2, 3}
                    relay.holding = False  # the "gone" of each table is acknowledged again

    run(play(), timeout=60)
