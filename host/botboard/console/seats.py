"""Seat keys and seat links: each seat's phone gets its own key, good for its own seat only.

A seat key opens ``/seat/N``, ``/api/seat/N/...`` and ``/ws/seat/N`` for that
N and nothing else (not the shared console, not another seat). Keys are
derived from the console token when there is one, so a daemon restarted with
the same ``--token`` keeps every phone's link working; without a token (a
loopback console) they are random for this run.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from typing import Any

import segno


SEAT_PATH = re.compile(r"^/(?:seat|api/seat|ws/seat)/(\d{1,2})(?:/[a-z-]*)?$")
MAX_SEATS = 8


class SeatKeys:
    def __init__(self, token: str | None) -> None:
        self._secret = token.encode() if token else secrets.token_bytes(32)

    def key(self, seat: int) -> str:
        digest = hmac.new(self._secret, f"botboard seat {seat}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:15]).decode()

    def check(self, seat: int, given: str) -> bool:
        return 0 <= seat < MAX_SEATS and hmac.compare_digest(given.encode(), self.key(seat).encode())


def plays_here(session: Any, seat: int) -> bool:
    """Whether ``seat`` is played at this table: a seat played at another table (remote
    play) is private there, and this console neither lists nor opens it."""
    here = getattr(session, "plays_here", None)
    return here is None or bool(here(seat))


def elsewhere_words(seat: int) -> str:
    return (f"seat {seat + 1} plays at another table: its view is private there (open it from "
            "that table's console)")


def seat_of_path(path: str) -> int | None:
    """The seat a seat route is for; None for every other path."""
    match = SEAT_PATH.match(path)
    return int(match.group(1)) if match else None


def seat_links(keys: SeatKeys, base_url: str, seats: list[dict[str, Any]], phones_reach: bool) -> list[dict[str, Any]]:
    """One entry per seat: its name, link and the link as a QR code (an SVG data: URL for an <img>)."""
    out = []
    for seat in seats:
        url = f"{base_url}seat/{seat['seat']}?key={keys.key(seat['seat'])}"
        qr = segno.make(url, error="m").svg_data_uri(scale=4, dark="#000", light="#fff")
        out.append({"seat": seat["seat"], "name": seat.get("name", f"seat {seat['seat'] + 1}"),
                    "url": url, "qr": qr, "phones_reach": phones_reach})
    return out
