"""End-to-end protection of a room's messages, so that any broker will do, even a public one.

    seal = Seal(room_key("club", "the link's key or a passphrase"), Identity.fresh(), "attic")
    data = seal.seal(topic, "propose", "kitchen", body)         # what goes to the broker
    signature, body = seal.open(topic, "to", "kitchen", data)   # SealError when it is not for us

What players already share to join -- the key after ``#`` in the room's link
(``mqtt://broker/club#KEY``, also in its QR code) or a passphrase read out at the table --
becomes the *room key* through scrypt, salted with the room's name (memory-hard: each guess
at a spoken passphrase costs an attacker 16 MB and some 50 ms). The room key does two jobs:
it encrypts what every member of the room may read (the room record, presence records, the
spectators' public entries), and, since only a member can write a presence record, it admits
each table's own long-term keys (X25519 to encrypt, Ed25519 to sign) into the room.

On that:
- every message is signed with its sender's Ed25519 key over its topic and body, and the topic
  names the sender (the host for ``room``, ``entries`` and ``to/T``; table T for
  ``presence/T``, ``propose/T``, ``catchup/T``): a forged or altered message, or a genuine one
  moved to another topic, is refused;
- what only the host and one table may read (``to/T``, ``propose/T``, ``catchup/T``: hands,
  programs, agendas, the tiles in a table's slots) is encrypted with the key those two tables
  share (X25519 between their keys, through HKDF salted with the room key);
- each table pins the keys another table announced first (the host pins every table's) and
  keeps the pins (table_keys.py); the host is the one whose keys match the fingerprint in the
  room's link (``fingerprint``): a member who knows the room key still cannot take over
  another table's seats nor speak as the host;
- the room's topics sit under a tag only the room key gives (``topic_tag``), so rooms whose
  keys differ never share a topic.

The primitives are PyCA cryptography's (ChaCha20-Poly1305, X25519, Ed25519, HKDF, HMAC,
SHA-256, scrypt).
Wire format: ``b"B2" | nonce (12) | ChaCha20-Poly1305(key, nonce, signature (64) | body,
associated data = topic)``; OVERHEAD bytes more than the body.
"""

from __future__ import annotations

import base64
import functools
import os
from collections.abc import Callable, Mapping

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, hmac, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

MAGIC = b"B2"
NONCE = 12
SIGNATURE = 64
OVERHEAD = len(MAGIC) + NONCE + 16 + SIGNATURE  # 16: the Poly1305 tag
# channels whose messages only the host and one table may read
PAIRWISE = ("to", "propose", "catchup")
# scrypt's cost: 2^14 x 128 x 8 bytes = 16 MB of memory per guess (RFC 7914's interactive figure)
_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2 ** 14, 8, 1
_RAW = serialization.Encoding.Raw, serialization.PublicFormat.Raw


class SealError(ValueError):
    """A message that cannot be opened or whose signature does not hold: refused, never used."""


@functools.lru_cache(maxsize=16)
def room_key(room: str, secret: str) -> bytes:
    """The room key from what the players share (the link's key or a passphrase)."""
    if not secret:
        raise ValueError("a room key cannot be empty")
    kdf = Scrypt(salt=b"botboard/v1/" + room.encode(), length=32, n=_SCRYPT_N, r=_SCRYPT_R, p=_SCRYPT_P)
    return kdf.derive(secret.encode())


def topic_tag(key: bytes) -> str:
    """The room's own topic level: HMAC(room key, "topics"), so rooms whose keys differ never share a
    topic, whatever their names; 96 bits in hex."""
    mac = hmac.HMAC(key, hashes.SHA256())
    mac.update(b"botboard/v2 topics")
    return mac.finalize()[:12].hex()


def fingerprint(keys: str) -> str:
    """A table's public keys (Identity.public) in 22 characters for the room's link: SHA-256, 128 bits."""
    digest = hashes.Hash(hashes.SHA256())
    digest.update(bytes.fromhex(keys))
    return base64.urlsafe_b64encode(digest.finalize()[:16]).rstrip(b"=").decode()


def _hkdf(key: bytes, info: bytes, salt: bytes | None = None) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(key)


class Identity:
    """A table's own long-term keys: X25519 (others encrypt to it) and Ed25519 (it signs)."""

    def __init__(self, box: X25519PrivateKey, sign: Ed25519PrivateKey) -> None:
        self.box, self.signer = box, sign
        self.public = (box.public_key().public_bytes(*_RAW) + sign.public_key().public_bytes(*_RAW)).hex()

    @classmethod
    def fresh(cls) -> Identity:
        return cls(X25519PrivateKey.generate(), Ed25519PrivateKey.generate())

    @classmethod
    def from_text(cls, text: str) -> Identity:
        """The keys ``text`` (as ``text()`` wrote them) holds; ValueError when it holds none."""
        try:
            raw = bytes.fromhex(text.strip())
        except ValueError:
            raw = b""
        if len(raw) != 64:
            raise ValueError("not a table's keys (64 bytes in hex)")
        return cls(X25519PrivateKey.from_private_bytes(raw[:32]), Ed25519PrivateKey.from_private_bytes(raw[32:]))

    def text(self) -> str:
        """The private keys as hex, for the table's own file (table_keys.py)."""
        raw = serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        return (self.box.private_bytes(*raw) + self.signer.private_bytes(*raw)).hex()


@functools.lru_cache(maxsize=256)  # parsed once per table, not once per message
def _public_keys(keys: str) -> tuple[X25519PublicKey, Ed25519PublicKey]:
    try:
        raw = bytes.fromhex(keys)
    except ValueError:
        raw = b""
    if len(raw) != 64:
        raise SealError("the announced keys are not 64 bytes in hex")
    return X25519PublicKey.from_public_bytes(raw[:32]), Ed25519PublicKey.from_public_bytes(raw[32:])


class Seal:
    """One table's view of a room's keys: its own, the room key, and the keys it pinned."""

    def __init__(self, key: bytes, identity: Identity, table: str, pins: Mapping[str, str] | None = None,
                 on_pin: Callable[[str, str], None] | None = None) -> None:
        self.identity, self.table, self._key = identity, table, key
        self._public = ChaCha20Poly1305(_hkdf(key, b"botboard/v2 public"))
        # table -> its public keys: those kept from earlier runs (table_keys.py), then new ones
        self._pinned: dict[str, str] = {**(pins or {}), table: identity.public}
        self._on_pin = on_pin
        self._pairs: dict[str, ChaCha20Poly1305] = {}

    def pinned(self, table: str) -> str | None:
        return self._pinned.get(table)

    def pin(self, table: str, keys: str, replace: bool = False) -> None:
        """Keeps ``table``'s keys the first time; other keys later are an impostor's. ``replace``:
        keys vouched for otherwise (the host's, by the fingerprint in the room's link)."""
        _public_keys(keys)
        if replace and self._pinned.get(table) != keys:
            self._pinned.pop(table, None)
            self._pairs.pop(table, None)
        if table not in self._pinned and self._on_pin is not None:
            self._on_pin(table, keys)  # kept across restarts
        pinned = self._pinned.setdefault(table, keys)
        if pinned != keys:
            raise SealError(f"table {table} announced other keys than when it joined: refused "
                            "(a table whose keys were lost joins again under another name)")

    def seal(self, topic: str, channel: str, peer: str | None, body: bytes) -> bytes:
        """``body`` signed and encrypted for ``topic`` (``peer``: the other end of a pairwise channel)."""
        signature = self.identity.signer.sign(_signed(topic, body))
        nonce = os.urandom(NONCE)
        return MAGIC + nonce + self._aead(channel, peer).encrypt(nonce, signature + body, topic.encode())

    def open(self, topic: str, channel: str, peer: str | None, data: bytes) -> tuple[bytes, bytes]:
        """(signature, body) of a sealed message; check the signature with ``verify``."""
        if not data.startswith(MAGIC) or len(data) < OVERHEAD:
            raise SealError("not a sealed message (sent by something that is no botboard table of this room)")
        aead = self._aead(channel, peer)
        try:
            plain = aead.decrypt(data[2:2 + NONCE], data[2 + NONCE:], topic.encode())
        except InvalidTag:
            if channel in PAIRWISE:
                raise SealError(f"not sealed for this table by {peer}'s keys (forged, or altered)") from None
            raise SealError("not sealed with this room's key (sent by something that is no table of "
                            "this room)") from None
        return plain[:SIGNATURE], plain[SIGNATURE:]

    def verify(self, signer: str, topic: str, signature: bytes, body: bytes, announced: str | None = None) -> None:
        """The signature is ``signer``'s: by the keys it announced in this very message (a room or
        presence record, then pinned), else by the keys pinned for it."""
        keys = announced if announced is not None else self._pinned.get(signer)
        if keys is None:
            raise SealError(f"no keys known for table {signer}")
        try:
            _public_keys(keys)[1].verify(signature, _signed(topic, body))
        except InvalidSignature:
            raise SealError(f"the signature is not table {signer}'s (forged, or altered)") from None
        if announced is not None:
            self.pin(signer, announced)

    def _aead(self, channel: str, peer: str | None) -> ChaCha20Poly1305:
        if channel not in PAIRWISE:
            return self._public
        if peer is None or peer not in self._pinned:
            raise SealError(f"no keys known for table {peer} yet")
        aead = self._pairs.get(peer)
        if aead is None:
            shared = self.identity.box.exchange(_public_keys(self._pinned[peer])[0])
            aead = self._pairs[peer] = ChaCha20Poly1305(_hkdf(shared, b"botboard/v2 pair", self._key))
        return aead


def _signed(topic: str, body: bytes) -> bytes:
    return topic.encode() + b"\0" + body
