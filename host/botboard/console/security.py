"""The console's gate: who may reach which route, from where, with how big a body.

- The shared console (every route but the seat routes) needs the token when
  there is one (``check_listen`` refuses a network listener without one):
  ``?token=``, ``Authorization: Bearer`` or the cookie set when the page was
  opened with the token.
- A seat's routes (``/seat/N``, ``/api/seat/N/...``, ``/ws/seat/N``) need that
  seat's key (seats.py), always, token or not: a seat key opens its own seat
  and the static assets, nothing else. A seat played at another table (remote
  play) is private there: its routes answer 403 here, whatever the request carries.
- Loopback is not a wall: any page in the user's browser can send requests
  there. So a request whose Origin is not our own is refused (cross-site POSTs
  and websockets), a loopback console answers only to a loopback Host (DNS
  rebinding), and a body may not exceed ``MAX_BODY`` bytes.
Comparison is constant-time. Responses also forbid framing and sniffing.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from urllib.parse import quote, unquote

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..daemon import is_loopback
from .seats import SeatKeys, elsewhere_words, seat_of_path

MAX_BODY = 64 * 1024  # the largest request the console takes (a scenario is a few KB)
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",  # the token is in the page address: never pass it on
    "content-security-policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
}
NO_TOKEN = ("missing or wrong token: open the address the daemon printed at start "
            "(it carries ?token=...)")
NO_SEAT_KEY = ("missing or wrong seat key: open your seat's link or QR code from the shared "
               "console's Seats panel (it carries ?key=...)")


def host_name(header: str) -> str:
    """The host of a Host header, without its port."""
    if header.startswith("["):
        return header.split("]", 1)[0] + "]"
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class TokenGate:
    """Refuses HTTP requests (401/403/413/421) and websockets (close 1008) that may not pass."""

    def __init__(self, app: ASGIApp, token: str | None, seat_keys: SeatKeys, listen: str = "127.0.0.1",
                 seat_here: Callable[[int], bool] = lambda seat: True) -> None:
        self.app = app
        self.seat_here = seat_here
        self.token = token
        self.seat_keys = seat_keys
        self.loopback_only = is_loopback(listen)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        refusal = self._refusal(conn, scope)
        if refusal is not None:
            status, why = refusal
            if scope["type"] == "http":
                await JSONResponse({"error": why}, status_code=status)(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        cookie = self._cookie_to_set(conn, scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in SECURITY_HEADERS.items():
                    headers.setdefault(key, value)
                if cookie:
                    headers.append("set-cookie", cookie)
            await send(message)

        await self.app(scope, limited(receive) if scope["type"] == "http" else receive, send_with_headers)

    def _refusal(self, conn: HTTPConnection, scope: Scope) -> tuple[int, str] | None:
        if self.loopback_only and not is_loopback(host_name(conn.headers.get("host", ""))):
            return 421, "this console answers to localhost addresses only"
        if not self._same_origin(conn) and (scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS):
            return 403, "a request from another site's page is refused"
        length = conn.headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY:
            return 413, f"the request body is over {MAX_BODY} bytes"
        path = scope["path"]
        seat = seat_of_path(path)
        if seat is not None:
            if not self.seat_here(seat):
                return 403, elsewhere_words(seat)
            return None if self._seat_key_ok(conn, seat) else (401, NO_SEAT_KEY)
        if self._token_ok(conn):
            return None
        if path.startswith("/static/") and self._seat_cookie(conn) is not None:
            return None  # a seat's page needs the scripts and styles too; they hold nothing secret
        return 401, NO_TOKEN

    # -- the shared console's token ---------------------------------------------------
    def _token_ok(self, conn: HTTPConnection) -> bool:
        if not self.token:
            return True
        given = conn.query_params.get("token") or unquote(conn.cookies.get(self.cookie_name(conn.scope), ""))
        auth = conn.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            given = auth[7:]
        return hmac.compare_digest(given.encode(), self.token.encode())

    # -- a seat's key -------------------------------------------------------------------
    def _seat_key_ok(self, conn: HTTPConnection, seat: int) -> bool:
        given = conn.query_params.get("key")
        auth = conn.headers.get("authorization", "")
        if not given and auth.lower().startswith("bearer "):
            given = auth[7:]
        if not given and self._seat_cookie(conn) == seat:
            return True
        return bool(given) and self.seat_keys.check(seat, given or "")

    def _seat_cookie(self, conn: HTTPConnection) -> int | None:
        """The seat whose valid key this browser's cookie carries, if any."""
        seat_text, _, key = unquote(conn.cookies.get(self.seat_cookie_name(conn.scope), "")).partition(".")
        if seat_text.isdigit() and self.seat_keys.check(int(seat_text), key):
            return int(seat_text)
        return None

    def _cookie_to_set(self, conn: HTTPConnection, scope: Scope) -> str | None:
        """A page opened with its token (or seat key) in the address: a same-site cookie
        carries it to the page's scripts, styles and websocket, which cannot all add a query."""
        if scope["type"] != "http":
            return None
        seat = seat_of_path(scope["path"])
        if seat is not None and "key" in conn.query_params:
            value = f"{seat}.{conn.query_params['key']}"
            return f"{self.seat_cookie_name(scope)}={quote(value)}; Path=/; HttpOnly; SameSite=Strict"
        if seat is None and self.token and "token" in conn.query_params:
            return f"{self.cookie_name(scope)}={quote(self.token)}; Path=/; HttpOnly; SameSite=Strict"
        return None

    @staticmethod
    def cookie_name(scope: Scope) -> str:
        """Per port: cookies do not separate ports, two daemons on one host would clash."""
        server = scope.get("server") or ("", 0)
        return f"botboard_token_{server[1]}"

    @staticmethod
    def seat_cookie_name(scope: Scope) -> str:
        server = scope.get("server") or ("", 0)
        return f"botboard_seat_{server[1]}"

    @staticmethod
    def _same_origin(conn: HTTPConnection) -> bool:
        """No Origin: not a browser (the CLI, tests), the token is the guard."""
        origin = conn.headers.get("origin")
        if origin is None:
            return True
        return origin.split("://", 1)[-1] == conn.headers.get("host", "")


def limited(receive: Receive) -> Receive:
    """A body sent in chunks without a length is cut off past MAX_BODY (the read fails)."""
    seen = 0

    async def guarded() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                return {"type": "http.disconnect"}
        return message

    return guarded
