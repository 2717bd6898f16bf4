"""Forward secrecy per game and padded lengths: a table's keys file, stolen after a game,
opens none of that game's recorded private messages; sealed sizes fall in a few classes."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from botboard.remote.local_broker import ROOM_KEY, Broker
from botboard.remote.protocol import PresenceRecord, RoomRecord, decode
from botboard.remote.seal import (KEY_ID, MAGIC, MAX_PLAIN, MIN_CLASS, NONCE, OVERHEAD, Seal, pad,
                                  pair_key, room_key)
from botboard.remote.table_keys import TableKeys

from .. import patience
from .helpers import TOPICS
from .test_trust import Spy
from .two_tables import two_tables

HEAD = len(MAGIC) + KEY_ID + NONCE
TAG = 16  # Poly1305


def _opens(key: bytes, topic: str, data: bytes) -> bool:
    try:
        ChaCha20Poly1305(key).decrypt(data[len(MAGIC) + KEY_ID:HEAD], data[HEAD:], topic.encode())
    except InvalidTag:
        return False
    return True


def _announced(messages: list[tuple[str, bytes]], reader: Seal) -> set[str]:
    """Every public X25519 key the room's records announce (long-term and per game): what a thief
    who also holds the room key reads off the broker."""
    publics: set[str] = set()
    for topic, data in messages:
        channel, _ = TOPICS.split(topic)
        if channel not in ("room", "presence") or not data:
            continue
        _, body = reader.open(topic, channel, None, data)
        record = decode(body, (RoomRecord, PresenceRecord))
        publics |= {record.keys[:64], record.ephemeral}
    return publics


@pytest.mark.timeout(600)
def test_a_stolen_keys_file_opens_no_recorded_private_message_of_a_finished_game(
        broker: Broker, tmp_path: Path) -> None:
    async def play() -> tuple[list[X25519PrivateKey], list[tuple[str, bytes]]]:
        async with Spy(broker) as spy:
            async with two_tables(broker, tmp_path, "botwars", 2, (0,), (1,), {"max_turns": 2}) as tables:
                await tables.hands().play()
                assert tables.host.session.mode == "over"
                # what table b holds in memory at the end of the game: the positive control
                live = list(tables.joined.remote.room._seal._own)
            await patience.aquiet(0.3)  # the last messages reach the spy
        return live, spy.messages

    live, messages = asyncio.run(play())
    recorded = [(topic, data) for topic, data in messages if topic == TOPICS.to("b")]
    assert len(recorded) >= 10, "the game sent table b its private messages"
    # lengths say little: every sealed message is one of a few sizes
    sizes = {len(data) - HEAD - TAG for _, data in messages if data}
    assert sizes <= {MIN_CLASS << k for k in range(9)} | {MAX_PLAIN}, sorted(sizes)

    # later: table b's keys file is stolen, and the thief has the room's link
    stolen = TableKeys.load(tmp_path / "b" / "room-club.keys")
    room = room_key("club", ROOM_KEY)
    publics = _announced(messages, Seal(room, stolen.identity, "b"))
    assert len(publics) >= 2  # both tables' keys, long-term and per game
    privates = [stolen.identity.box]  # all the file holds
    opened = [(topic, data) for (topic, data), private, public in itertools.product(recorded, privates, publics)
              if _opens(pair_key(private, public, room), topic, data)]
    assert opened == [], f"the stolen keys file opened {len(opened)} of {len(recorded)} recorded messages"

    # the same attack with the game key table b held during the game opens them: the attack works
    with_game_key = {topic + data.hex() for (topic, data), private, public in itertools.product(recorded, live, publics)
                     if _opens(pair_key(private, public, room), topic, data)}
    assert len(with_game_key) == len(recorded)


def test_sealed_sizes_fall_in_a_few_classes() -> None:
    classes = {len(pad(bytes(n))) for n in range(0, 5000)}
    assert classes == {256, 512, 1024, 2048, 4096, 8192}
    assert len(pad(bytes(MAX_PLAIN - 4))) == MAX_PLAIN  # the largest message is not padded beyond
    assert len(pad(bytes(MIN_CLASS - 4))) == MIN_CLASS
    assert OVERHEAD == len(MAGIC) + KEY_ID + NONCE + TAG + 64 + 4
