"""A room's address: ``mqtt://[user:password@]HOST[:PORT]/ROOM[#KEY.HOST]`` or ``mqtts://...`` (TLS).

``KEY``, after ``#``, is the room's key (seal.py): what makes the room's messages readable
to its tables only, whatever the broker. ``HOST``, after the last ``.``, is the fingerprint of
the host table's keys (seal.fingerprint, 22 characters): a table that joins with the link
believes no other host. Neither is printed with the address.

The room name becomes one level of MQTT topics (protocol.py), so it may not hold what
a topic level cannot: the wildcards ``+`` and ``#``, the level separator ``/``, NUL, or
control characters. Every error names the part of the URL that is wrong.
"""

from __future__ import annotations

import dataclasses
import re
from urllib.parse import unquote

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}  # IANA's registered ports for MQTT and MQTT over TLS
MAX_ROOM_BYTES = 100  # keeps every topic short; a room is a name people type
_FINGERPRINT = re.compile(r"[A-Za-z0-9_-]{22}")  # seal.fingerprint


class RemoteUrlError(ValueError):
    """The remote-play URL cannot be used; the message says which part and why."""


@dataclasses.dataclass(frozen=True)
class RemoteUrl:
    host: str
    port: int
    room: str
    tls: bool = False
    username: str | None = None
    password: str | None = dataclasses.field(default=None, repr=False)
    key: str | None = dataclasses.field(default=None, repr=False)
    host_key: str | None = dataclasses.field(default=None, repr=False)  # the host's fingerprint

    def link(self) -> str:
        """The address to share with the other tables: with the room's key and the host's
        fingerprint, without the password."""
        if not self.key:
            return str(self)
        return f"{self}#{self.key}.{self.host_key}" if self.host_key else f"{self}#{self.key}"

    def __str__(self) -> str:
        # never print the password: the URL ends up in logs and on the console
        user = f"{self.username}@" if self.username is not None else ""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{host}:{self.port}/{self.room}"


def hidden(secret: str) -> str:
    """A secret as it may be shown: a long random one by its start (known again by it), a
    short one, a password, not at all."""
    return secret[:4] + "..." if len(secret) >= 16 else "..."


def masked_link(text: str) -> str:
    """``text`` with its password hidden whole and its key by its start, taken apart as
    ``parse_remote_url`` takes it (never by searching for the secret's text: a password may be
    %-encoded, and its text may be part of the host or the room), so that even a link it
    refuses can be shown in an error."""
    scheme, sep, rest = text.partition("://")
    rest, hashmark, key = rest.partition("#")
    netloc, slash, room = rest.partition("/")
    userinfo, at, hostport = netloc.rpartition("@")
    if at:
        user, colon, _ = userinfo.partition(":")
        userinfo = user + (":..." if colon else "")
    shown_key = "#" + hidden(unquote(key)) if hashmark else ""
    return f"{scheme}{sep}{userinfo}{at}{hostport}{slash}{room}{shown_key}"


def parse_remote_url(link: str) -> RemoteUrl:
    text = masked_link(link)  # what the errors show
    scheme, sep, rest = link.partition("://")
    if not sep:
        raise RemoteUrlError(f"{text!r}: expected mqtt://HOST[:PORT]/ROOM or mqtts://...")
    if scheme.lower() not in DEFAULT_PORTS:
        raise RemoteUrlError(f"{text!r}: scheme {scheme!r} is not mqtt:// or mqtts://")
    rest, hashmark, key = rest.partition("#")
    if hashmark and not key:
        raise RemoteUrlError(f"{text!r}: nothing after '#': give the room's key there, or leave out the '#'")
    netloc, slash, room = rest.partition("/")
    if not slash or not room:
        raise RemoteUrlError(f"{text!r}: no room: add /ROOM after the broker's address")
    tls = scheme.lower() == "mqtts"
    username, password, hostport = _split_userinfo(text, netloc)
    host, port = _split_hostport(text, hostport, DEFAULT_PORTS[scheme.lower()])
    room_key, host_key = _split_key(unquote(key)) if hashmark else (None, None)
    return RemoteUrl(host, port, _check_room(text, unquote(room)), tls, username, password, room_key, host_key)


def _split_key(fragment: str) -> tuple[str | None, str | None]:
    """(room key, host fingerprint or None) of what follows '#'."""
    key, dot, host_key = fragment.rpartition(".")
    if dot and key and _FINGERPRINT.fullmatch(host_key):
        return key, host_key
    return fragment, None


def _split_userinfo(text: str, netloc: str) -> tuple[str | None, str | None, str]:
    userinfo, at, hostport = netloc.rpartition("@")
    if not at:
        return None, None, netloc
    user, colon, password = userinfo.partition(":")
    if not user:
        raise RemoteUrlError(f"{text!r}: empty user name before '@'")
    return unquote(user), (unquote(password) if colon else None), hostport


def _split_hostport(text: str, hostport: str, default_port: int) -> tuple[str, int]:
    if hostport.startswith("["):  # an IPv6 literal: [::1]:1883
        host, bracket, after = hostport[1:].partition("]")
        if not bracket:
            raise RemoteUrlError(f"{text!r}: IPv6 address without its closing ']'")
        if after and not after.startswith(":"):
            raise RemoteUrlError(f"{text!r}: unexpected {after!r} after the IPv6 address")
        port_text = after[1:] if after else None
    else:
        host, colon, port_text_or_empty = hostport.partition(":")
        port_text = port_text_or_empty if colon else None
    if not host:
        raise RemoteUrlError(f"{text!r}: no broker host")
    if any(ord(c) < 33 or ord(c) == 127 for c in host):
        raise RemoteUrlError(f"{text!r}: the broker host {host!r} holds a space or control character")
    if port_text is None:
        return host, default_port
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise RemoteUrlError(f"{text!r}: port {port_text!r} is not a number from 1 to 65535")
    return host, int(port_text)


def _check_room(text: str, room: str) -> str:
    for char, name in (("+", "'+' (an MQTT wildcard)"), ("#", "'#' (an MQTT wildcard)"),
                       ("/", "'/' (the MQTT topic separator)")):
        if char in room:
            raise RemoteUrlError(f"{text!r}: room {room!r} holds {name}; MQTT topics cannot carry it")
    if any(ord(c) < 32 or ord(c) == 127 or c.isspace() for c in room):
        raise RemoteUrlError(f"{text!r}: room {room!r} holds a space or control character")
    if len(room.encode()) > MAX_ROOM_BYTES:
        raise RemoteUrlError(f"{text!r}: room name longer than {MAX_ROOM_BYTES} bytes")
    return room
