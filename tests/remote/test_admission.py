"""admission.py: a replayed record is Stale, and only the host's keys sign a room record."""

from __future__ import annotations

import dataclasses

import pytest

from botboard.remote.admission import Stale, check_fresh, check_host
from botboard.remote.protocol import PresenceRecord, RoomRecord
from botboard.remote.seal import Identity, SealError, fingerprint
from botboard.remote.table_keys import TableKeys
from botboard.remote.url import RemoteUrl

HOST, ROGUE = Identity.fresh().public, Identity.fresh().public
URL = RemoteUrl("broker", 1883, "club", key="k")


def record(seq: int, epoch: str = "E2", keys: str = HOST) -> RoomRecord:
    return RoomRecord("host", epoch, "adder", 2, {}, {"host": (1,)}, None, keys, seq)


def presence(seq: int, state: str = "here", will: int = 0) -> PresenceRecord:
    return PresenceRecord("a", state, "player", (2,), HOST, seq, "run1", will)


def test_a_room_record_older_than_the_newest_seen_or_of_a_game_left_is_stale() -> None:
    keys = TableKeys(Identity.fresh())
    keys.mark("room", 10)
    keys.leave("E1")
    check_fresh(record(10), keys, {})  # the newest again: the broker's retained copy
    check_fresh(record(11), keys, {})
    with pytest.raises(Stale, match="older than the newest seen"):
        check_fresh(record(9), keys, {})
    with pytest.raises(Stale, match="which the room left"):
        check_fresh(record(12, epoch="E1"), keys, {})


def test_a_presence_record_is_fresh_when_newer_the_same_or_its_runs_last_will() -> None:
    keys = TableKeys(Identity.fresh())
    keys.mark("presence/a", 20)
    here = presence(20, will=15)
    check_fresh(here, keys, {})  # the broker's copy of the newest
    check_fresh(presence(21), keys, {"a": here})
    check_fresh(presence(15, "gone"), keys, {"a": here})  # the will made before "here"
    with pytest.raises(Stale, match="older than the newest seen"):
        check_fresh(presence(14, "gone"), keys, {"a": here})  # an earlier run's goodbye
    gone = dataclasses.replace(here, state="gone", seq=20)
    with pytest.raises(Stale):  # the newest number again, but not the record the table holds
        check_fresh(gone, keys, {"a": here})


def test_only_the_host_the_link_names_or_first_pinned_signs_a_room_record() -> None:
    named = dataclasses.replace(URL, host_key=fingerprint(HOST))
    keys = TableKeys(Identity.fresh())
    check_host(record(1), named, keys)
    with pytest.raises(SealError, match="the room's link names"):
        check_host(record(1, keys=ROGUE), named, keys)
    check_host(record(1, keys=ROGUE), URL, keys)  # no name, nothing pinned: the first is believed
    keys.pin_host(HOST)
    with pytest.raises(SealError, match="this table knows"):
        check_host(record(1, keys=ROGUE), URL, keys)
