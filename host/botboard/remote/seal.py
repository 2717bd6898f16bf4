"""End-to-end protection of a room's messages, so that any broker will do, even a public one.

    seal = Seal(room_key("club", "the link's key"), Identity.fresh(), "attic")
    data = seal.seal(topic, "propose", "kitchen", body)         # what goes to the broker
    signature, body = seal.open(topic, "to", "kitchen", data)   # SealError when it is not for us

What players already share to join -- the key after ``#`` in the room's link
(``mqtt://broker/club#KEY``, also in its QR code; 128 random bits, so there is nothing to guess:
spoken passphrases are refused, table_keys.py) -- becomes the *room key* through scrypt, salted
with the room's name. The room key does two jobs:
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
  share for the game: X25519 between their *game keys*, through HKDF salted with the room key.
  A game key is made in memory, never written: each table's at the start of its run, the
  host's at the start of its run and of every game. Each is announced in its table's signed
  record (room or presence), so the long-term keys vouch for it. A keys file taken later holds
  none of them, so it opens no recorded private message (forward secrecy per game); each side
  keeps its key before last (``KEPT``) for messages still in flight, no older one;
- every sealed body is padded to a size class (256, 512, ... bytes, ``pad``), so a message's
  length says little of what it carries;
- each table pins the keys another table announced first (the host pins every table's) and
  keeps the pins (table_keys.py); the host is the one whose keys match the fingerprint in the
  room's link (``fingerprint``): a member who knows the room key still cannot take over
  another table's seats nor speak as the host;
- the room's topics sit under a tag only the room key gives (``topic_tag``), so rooms whose
  keys differ never share a topic.

The primitives are PyCA cryptography's (ChaCha20-Poly1305, X25519, Ed25519, HKDF, HMAC,
SHA-256, scrypt).
Wire format: ``b"B3" | key id (4) | nonce (12) | ChaCha20-Poly1305(key, nonce, length (4) |
signature (64) | body | zeros, associated data = topic)``; the key id names the two game keys of
a pairwise message (zeros for the room key); OVERHEAD bytes more than the body, before padding.
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

MAGIC = b"B3"
KEY_ID = 4
NONCE = 12
SIGNATURE = 64
LENGTH = 4  # the padded body's length
OVERHEAD = len(MAGIC) + KEY_ID + NONCE + 16 + SIGNATURE + LENGTH  # 16: the Poly1305 tag
_HEAD = len(MAGIC) + KEY_ID + NONCE
_PUBLIC_ID = bytes(KEY_ID)
MIN_CLASS = 256  # padded sizes: 256, 512, 1024, ... bytes
MAX_PLAIN = 64 * 1024 + SIGNATURE + LENGTH  # the largest message (protocol.MAX_MESSAGE), signed
# channels whose messages only the host and one table may read
PAIRWISE = ("to", "propose", "catchup")
# scrypt's cost: 2^14 x 128 x 8 bytes = 16 MB of memory per guess (RFC 7914's interactive figure)
_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2 ** 14, 8, 1
_RAW = serialization.Encoding.Raw, serialization.PublicFormat.Raw


class SealError(ValueError):
    """A message that cannot be opened or whose signature does not hold: refused, never used."""


@functools.lru_cache(maxsize=16)
def room_key(room: str, secret: str) -> bytes:
    """The room key from what the players share (the link's key)."""
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

    KEPT = 2  # game keys kept per side: the current and the one before (messages in flight)

    def __init__(self, key: bytes, identity: Identity, table: str, pins: Mapping[str, str] | None = None,
                 on_pin: Callable[[str, str], None] | None = None) -> None:
        self.identity, self.table, self._key = identity, table, key
        self._public = ChaCha20Poly1305(_hkdf(key, b"botboard/v2 public"))
        # table -> its public keys: those kept from earlier runs (table_keys.py), then new ones
        self._pinned: dict[str, str] = {**(pins or {}), table: identity.public}
        self._on_pin = on_pin
        # game keys (forward secrecy): this table's, newest first, in memory only; the others'
        # as their signed records announced them
        self._own: list[X25519PrivateKey] = [X25519PrivateKey.generate()]
        self._theirs: dict[str, list[str]] = {}
        self._pairs: dict[tuple[str, str], ChaCha20Poly1305] = {}

    @property
    def ephemeral(self) -> str:
        """This table's current game key (X25519 public, hex), announced in its signed record."""
        return _hex(self._own[0].public_key())

    def rotate(self) -> None:
        """A new game key (a new game): the one before the last is forgotten, and with it what
        it sealed."""
        self._own = [X25519PrivateKey.generate(), *self._own][:self.KEPT]
        self._forget_pairs()

    def learn(self, table: str, ephemeral: str) -> None:
        """``table``'s game key, from a record whose signature by its pinned keys held."""
        known = self._theirs.setdefault(table, [])
        if ephemeral not in known:
            known.insert(0, ephemeral)
            del known[self.KEPT:]
            self._forget_pairs()

    def pinned(self, table: str) -> str | None:
        return self._pinned.get(table)

    def pin(self, table: str, keys: str, replace: bool = False) -> None:
        """Keeps ``table``'s keys the first time; other keys later are an impostor's. ``replace``:
        keys vouched for otherwise (the host's, by the fingerprint in the room's link)."""
        _public_keys(keys)
        if replace and self._pinned.get(table) != keys:
            self._pinned.pop(table, None)
            self._theirs.pop(table, None)
        if table not in self._pinned and self._on_pin is not None:
            self._on_pin(table, keys)  # kept across restarts
        pinned = self._pinned.setdefault(table, keys)
        if pinned != keys:
            raise SealError(f"table {table} announced other keys than when it joined: refused "
                            "(a table whose keys were lost joins again under another name)")

    def seal(self, topic: str, channel: str, peer: str | None, body: bytes) -> bytes:
        """``body`` signed, padded and encrypted for ``topic`` (``peer``: the other end of a
        pairwise channel)."""
        signature = self.identity.signer.sign(_signed(topic, body))
        kid, aead = self._sealing(channel, peer)
        nonce = os.urandom(NONCE)
        return MAGIC + kid + nonce + aead.encrypt(nonce, pad(signature + body), topic.encode())

    def open(self, topic: str, channel: str, peer: str | None, data: bytes) -> tuple[bytes, bytes]:
        """(signature, body) of a sealed message; check the signature with ``verify``."""
        if not data.startswith(MAGIC) or len(data) < OVERHEAD:
            raise SealError("not a sealed message (sent by something that is no botboard table of this room)")
        kid, nonce, sealed = data[2:2 + KEY_ID], data[2 + KEY_ID:_HEAD], data[_HEAD:]
        aead = self._opening(channel, peer, kid)
        try:
            plain = unpad(aead.decrypt(nonce, sealed, topic.encode()))
        except (InvalidTag, ValueError):
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

    def _sealing(self, channel: str, peer: str | None) -> tuple[bytes, ChaCha20Poly1305]:
        if channel not in PAIRWISE:
            return _PUBLIC_ID, self._public
        theirs = self._theirs.get(peer or "")
        if peer is None or peer not in self._pinned or not theirs:
            raise SealError(f"no game key known for table {peer} yet")
        mine = self._own[0]
        return key_id(_hex(mine.public_key()), theirs[0]), self._pair(mine, theirs[0])

    def _opening(self, channel: str, peer: str | None, kid: bytes) -> ChaCha20Poly1305:
        if channel not in PAIRWISE:
            return self._public
        for theirs in self._theirs.get(peer or "", ()):
            for mine in self._own:
                if key_id(theirs, _hex(mine.public_key())) == kid:
                    return self._pair(mine, theirs)
        raise SealError(f"not sealed for this table's game keys by {peer}'s (an earlier game's, "
                        "or forged)")

    def _pair(self, mine: X25519PrivateKey, theirs: str) -> ChaCha20Poly1305:
        """The key two tables share for this game: X25519 between their game keys, through
        HKDF salted with the room key; gone from memory when either side's key is."""
        name = (_hex(mine.public_key()), theirs)
        aead = self._pairs.get(name)
        if aead is None:
            aead = self._pairs[name] = ChaCha20Poly1305(pair_key(mine, theirs, self._key))
        return aead

    def _forget_pairs(self) -> None:
        live = {_hex(key.public_key()) for key in self._own}
        known = {key for keys in self._theirs.values() for key in keys}
        self._pairs = {name: aead for name, aead in self._pairs.items() if name[0] in live and name[1] in known}


def pair_key(mine: X25519PrivateKey, theirs: str, room: bytes) -> bytes:
    """The pairwise key from one side's private X25519 key and the other's public one (hex)."""
    try:
        public = X25519PublicKey.from_public_bytes(bytes.fromhex(theirs))
    except ValueError:
        raise SealError("a game key is not 32 bytes in hex") from None
    ours = sorted([_hex(mine.public_key()), theirs])
    return _hkdf(mine.exchange(public), ("botboard/v3 pair " + " ".join(ours)).encode(), room)


def key_id(sender: str, reader: str) -> bytes:
    """Which two game keys sealed a pairwise message (4 bytes, so the reader picks its key at once)."""
    digest = hashes.Hash(hashes.SHA256())
    digest.update(bytes.fromhex(sender) + bytes.fromhex(reader))
    return digest.finalize()[:KEY_ID]


def pad(plain: bytes) -> bytes:
    """``plain`` with its length (4 bytes) before it and zeros after, to the next size class: a
    power of two from 256 bytes, and the largest message's size at the top."""
    size = len(plain) + LENGTH
    target = max(MIN_CLASS, 1 << (size - 1).bit_length())
    target = min(target, max(size, MAX_PLAIN))
    return len(plain).to_bytes(LENGTH, "big") + plain + bytes(target - size)


def unpad(padded: bytes) -> bytes:
    length = int.from_bytes(padded[:LENGTH], "big")
    if len(padded) < LENGTH + length:
        raise ValueError("padded length beyond the message")
    return padded[LENGTH:LENGTH + length]


def _hex(key: X25519PublicKey) -> str:
    return key.public_bytes(*_RAW).hex()


def _signed(topic: str, body: bytes) -> bytes:
    return topic.encode() + b"\0" + body
