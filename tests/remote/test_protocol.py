import dataclasses
import json

import pytest

from botboard.remote.protocol import (CHANNEL_KINDS, KINDS, MAX_MESSAGE, Answer, CatchUp, CaughtUp,
                                      ClaimRefused, Entry, PresenceRecord, ProtocolError, Proposal,
                                      RoomRecord, Topics, decode, encode)

KEYS = "0f" * 64  # a table's public keys, as seal.Identity.public spells them
EPH = "1e" * 32  # a game key (seal.Seal.ephemeral)

SAMPLES = [
    RoomRecord("host", "e1", "volt", 2, {"seed": 3}, {"host": (1,), "a": (2,)}, "pico-arena", KEYS, 17, EPH),
    PresenceRecord("a", "here", "player", (2, 4), KEYS, 18, "r1", 16, EPH),
    Proposal("a", "r1", 7, "e1", 2, {"tile": "F1", "slots": [1, 2]}),
    CatchUp("a", "e1", 12, "r1", 3),
    Entry("e1", 3, "a", {"moved": True}, 2, {"hand": ["x"]}),
    Entry("e1", 4, "host", None),
    Answer("e1", "r1", 7, True, n=3),
    Answer("e1", "r1", 8, False, reason="seat 3 belongs to table b"),
    ClaimRefused((3,), "seat 3 belongs to table b"),
    CaughtUp("e1", 0),
]


@pytest.mark.parametrize("message", SAMPLES, ids=lambda m: type(m).__name__)
def test_every_message_survives_encoding(message: object) -> None:
    data = encode(message)  # type: ignore[arg-type]
    assert decode(data, (type(message),)) == message  # type: ignore[arg-type]


def test_every_kind_has_a_sample_and_optional_fields_have_defaults() -> None:
    assert {type(m) for m in SAMPLES} == set(KINDS.values())
    for cls in KINDS.values():
        defaults = {f.name for f in dataclasses.fields(cls) if f.default is not dataclasses.MISSING}
        assert cls.OPTIONAL <= defaults


def body(**changes: object) -> bytes:
    fields = json.loads(encode(Proposal("a", "r1", 7, "e1", 2, {"x": 1})))
    fields.update(changes)
    return json.dumps({k: v for k, v in fields.items() if v is not ...}).encode()


@pytest.mark.parametrize("data, complaint", [
    (b"", "not JSON"), (b"\xff", "not JSON"), (b"[]", "JSON object"), (b"1e999", "JSON object"),
    (b'{"v":1,"kind":"proposal","payload":NaN}', "NaN"), (b"[" * 60000, "not JSON"),
    (body(v=1), "version 1"), (body(v=True), "version True"), (body(v=...), "version None"),
    (body(kind="entry"), "kind 'entry' is not expected"), (body(kind="bogus"), "kind 'bogus'"),
    (body(extra=1), "unknown fields ['extra']"), (body(seat=...), "missing fields ['seat']"),
    (body(counter=0), "counter must be an integer >= 1"), (body(counter=1.0), "counter"),
    (body(counter=True), "counter"), (body(seat=-1), "seat"), (body(table="a/b"), "table must be"),
    (body(table="x" * 65), "table must be"), (body(run=""), "run must be"),
    (body(payload="x" * MAX_MESSAGE), "over 65536"),
])
def test_malformed_messages_are_refused_with_a_reason(data: bytes, complaint: str) -> None:
    with pytest.raises(ProtocolError) as error:
        decode(data, CHANNEL_KINDS["propose"])
    assert complaint in str(error.value)


def test_a_room_record_cannot_give_one_seat_to_two_tables() -> None:
    fields = json.loads(encode(SAMPLES[0]))
    fields["seats"] = {"host": [1], "a": [1]}
    with pytest.raises(ProtocolError, match="a seat belongs to two tables"):
        decode(json.dumps(fields).encode(), (RoomRecord,))


def test_a_message_too_large_is_not_encoded() -> None:
    with pytest.raises(ProtocolError, match="over 65536"):
        encode(Entry("e1", 1, "a", "x" * MAX_MESSAGE))


def test_topics_name_the_channel_and_the_table() -> None:
    topics = Topics("club", "t4g")
    assert topics.to("a") == "botboard/v2/club/t4g/to/a"
    assert topics.split("botboard/v2/club/t4g/propose/a") == ("propose", "a")
    assert topics.split("botboard/v2/club/t4g/room") == ("room", None)
    assert topics.foreign("botboard/v2/club/other/room") == "other"
    assert topics.foreign("botboard/v2/club/t4g/room") is None
    for bad in ("botboard/v2/other/t4g/room", "botboard/v2/club/other/room", "botboard/v2/club/t4g/propose",
                "botboard/v2/club/t4g/propose/a/b", "botboard/v2/club/t4g/nothing/a",
                "botboard/v2/club/t4g/to/a b"):
        with pytest.raises(ProtocolError):
            topics.split(bad)
