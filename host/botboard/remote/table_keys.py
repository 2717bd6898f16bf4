"""What a table keeps in its data directory to be itself in a room, readable by its user only:
``room-ROOM.keys`` (TableKeys: its own keys, seal.Identity, by which the host knows a restarted
table; the keys it pinned; the highest record numbers it has seen) and, at a host whose link
came without a key, ``room-ROOM.key`` (the room key it made, so the link it gave out stays good
when it restarts).
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import time
from pathlib import Path
from typing import Any

from ..private import private_dir
from .seal import Identity, fingerprint
from .url import RemoteUrl

PASSPHRASE_REFUSED = ("--room-key: passphrases are not taken any more (anyone who records one message "
                      "of the room could test guesses at one offline): give the room's link with "
                      "--remote, or scan its QR code at the host table")
KEY_BYTES = 16  # 128 bits of room key in a link: no one guesses it, however fast the broker lets them try


class RoomKeyError(ValueError):
    """The room cannot be entered with the keys given; the message says what to give."""


def with_room_key(url: RemoteUrl, passphrase: str | None, hosting: bool, folder: Path) -> RemoteUrl:
    """``url`` with the room's key: the link's own (after #), else (a host only) the one this
    host made for the room. A joining table without one is told what to do. A spoken passphrase
    is refused: one recorded message of the room would let anyone test guesses at it offline."""
    if passphrase:
        raise RoomKeyError(PASSPHRASE_REFUSED)
    if url.key and not url.host_key and not hosting:
        raise RoomKeyError(f"--remote {url}: this link is from an older botboard and does not name the "
                           "host table's keys: get a new link from the host table")
    if url.key:
        return url
    if not hosting:
        raise RoomKeyError(f"--remote {url}: the room's link has no key after '#': copy the whole link "
                        "the host table shows (it ends in #KEY.HOST), or scan its QR code")
    path = folder / f"room-{url.room}.key"
    if not path.exists():
        _write_private(path, secrets.token_urlsafe(KEY_BYTES))
    try:
        kept = path.read_text().strip()
    except (OSError, UnicodeDecodeError) as err:
        kept, why = "", f"cannot be read ({err})"
    else:
        why = "is empty"
    if not kept:
        raise RoomKeyError(f"{path}: the room key this host keeps {why}: move it away to make a new "
                           "one (the tables then need the new link), or give the link's key with #KEY")
    return dataclasses.replace(url, key=kept)


class TableKeys:
    """A table's keys file: its own keys; the keys it pinned for each table (``pins``) and the
    host's (``host``: a table whose link names no host believes the first it sees, then only
    it); the highest record number seen from each sender (``marks``) and the epochs the room
    left, so a replayed record never takes it back; the highest number it signed itself;
    the topics (room key) where anything of the room ever opened. ``path`` None: in memory."""

    LEFT = 32  # epochs remembered

    def __init__(self, identity: Identity, path: Path | None = None) -> None:
        self.identity, self.path = identity, path
        self.pins: dict[str, str] = {}
        self.host: str | None = None
        self.marks: dict[str, int] = {}
        self.left: list[str] = []
        self.signed = 0
        self.opened: list[str] = []  # topic tags (seal.topic_tag) of the room keys that opened something

    @classmethod
    def load(cls, path: Path) -> TableKeys:
        """The keys kept in ``path``, made the first time (a file of hex keys alone, from an
        earlier botboard, keeps its keys)."""
        if not path.exists():
            keys = cls(Identity.fresh(), path)
            _write_private(path, keys.text())
            return keys
        try:
            text = path.read_text()  # not UTF-8 or not a file: said like any other damage
            data: dict[str, Any] = json.loads(text) if text.lstrip().startswith("{") else {"keys": text}
            keys = cls(Identity.from_text(str(data["keys"])), path)
            keys.pins = {str(t): str(k) for t, k in dict(data.get("pins", {})).items()}
            keys.host = data.get("host")
            keys.marks = {str(s): int(n) for s, n in dict(data.get("marks", {})).items()}
            keys.left = [str(e) for e in data.get("left", [])]
            keys.signed, keys.opened = int(data.get("signed", 0)), [str(t) for t in data.get("opened", [])]
        except (ValueError, KeyError, TypeError, OSError, RecursionError) as err:
            raise RoomKeyError(f"{path}: not a table's keys file ({err}); move it away and start again "
                               "(the host then knows this table only under another name)") from None
        return keys

    def text(self) -> str:
        return json.dumps({"keys": self.identity.text(), "pins": self.pins, "host": self.host,
                           "marks": self.marks, "left": self.left, "signed": self.signed,
                           "opened": self.opened}, indent=1)

    def next_seq(self) -> int:
        """A number for the next record this table signs: above every earlier one, even across a
        restart (wall-clock microseconds, never below the last)."""
        self.signed = max(self.signed + 1, time.time_ns() // 1000)
        self._save()
        return self.signed

    def pin(self, table: str, keys: str) -> None:
        self.pins[table] = keys
        self._save()

    def pin_host(self, keys: str) -> None:
        self.host = keys
        self._save()

    def mark(self, sender: str, seq: int) -> None:
        if seq > self.marks.get(sender, 0):
            self.marks[sender] = seq
            self._save()

    def leave(self, epoch: str) -> None:
        if epoch not in self.left:
            self.left = [*self.left, epoch][-self.LEFT:]
            self._save()

    def saw_room(self, tag: str) -> None:
        """Something of the room whose topics are under ``tag`` opened with its key."""
        if tag not in self.opened:
            self.opened = [*self.opened, tag][-self.LEFT:]
            self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        # written whole then renamed: a crash leaves the old file or the new one, never half
        tmp = self.path.with_name(self.path.name + ".new")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(self.text() + "\n")
        os.replace(tmp, self.path)


def host_link(url: RemoteUrl, keys: TableKeys) -> RemoteUrl:
    """The host's address, its link naming its own keys' fingerprint."""
    own = fingerprint(keys.identity.public)
    if url.host_key is not None and url.host_key != own:
        raise RoomKeyError(f"--remote {url}: this link names another host table's keys, not this table's: "
                           "give this table the link without what follows '#', or its own link")
    return dataclasses.replace(url, host_key=own)


def identity(path: Path) -> Identity:
    """The table's own keys kept in ``path``, made the first time."""
    return TableKeys.load(path).identity


def _write_private(path: Path, text: str) -> None:
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text + "\n")
