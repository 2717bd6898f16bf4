"""What a table keeps in its data directory to be itself in a room, readable by its user only:
``room-ROOM.keys`` (its own keys, seal.Identity: the host knows a restarted table by them)
and, at a host whose link came without a key, ``room-ROOM.key`` (the room key it made, so
the link it gave out stays good when it restarts).
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from pathlib import Path

from ..private import private_dir
from .seal import Identity
from .url import RemoteUrl

KEY_BYTES = 16  # 128 bits of room key in a link: no one guesses it, however fast the broker lets them try


class RoomKeyError(ValueError):
    """The room cannot be entered with the keys given; the message says what to give."""


def with_room_key(url: RemoteUrl, passphrase: str | None, hosting: bool, folder: Path) -> RemoteUrl:
    """``url`` with the room's key: the link's own (after #), else the passphrase, else (a host
    only) the one this host made for the room. A joining table without one is told what to do."""
    if url.key and passphrase and url.key != passphrase:
        raise RoomKeyError("--remote and --room-key give two different room keys: give it once")
    key = url.key or passphrase
    if key:
        return dataclasses.replace(url, key=key)
    if not hosting:
        raise RoomKeyError(f"--remote {url}: the room's link has no key after '#': copy the whole link "
                        "the host table shows (it ends in #KEY), or give the passphrase the tables "
                        "agreed on with --room-key")
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


def identity(path: Path) -> Identity:
    """The table's keys kept in ``path``, made the first time."""
    if not path.exists():
        _write_private(path, Identity.fresh().text())
    try:
        return Identity.from_text(path.read_text())
    except (ValueError, OSError) as err:  # not UTF-8, not a file, or not keys
        raise RoomKeyError(f"{path}: {err}; move it away and start again (the host then knows this "
                           "table only in a new game)") from None


def _write_private(path: Path, text: str) -> None:
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text + "\n")
