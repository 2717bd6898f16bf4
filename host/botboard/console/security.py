"""The console's gate: every request and websocket carries the token, when there is one.

The daemon refuses to listen beyond loopback without a token (``check_listen``);
here each HTTP request is answered 401 and each websocket closed with 1008
unless it carries ``?token=``, ``Authorization: Bearer`` or the cookie set when
the page was opened with the token. Comparison is
constant-time. Responses also forbid framing and cross-origin sniffing: the
console only ever talks to its own origin.
"""

from __future__ import annotations

import hmac
from urllib.parse import quote, unquote

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",  # the token is in the page address: never pass it on
    "content-security-policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
}


class TokenGate:
    """Refuses HTTP requests (401) and websockets (close 1008) without the token."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if self.token and not self._allowed(scope):
            if scope["type"] == "http":
                await JSONResponse({"error": "missing or wrong token: open the address the "
                                    "daemon printed at start (it carries ?token=...)"},
                                   status_code=401)(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] == "websocket" and not self._same_origin(scope):
            await send({"type": "websocket.close", "code": 1008})
            return

        # the page was opened with ?token=: a same-site cookie carries it to the
        # page's scripts, styles and websocket (which cannot all add a query)
        set_cookie = bool(self.token) and scope["type"] == "http" and \
            "token" in HTTPConnection(scope).query_params

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in SECURITY_HEADERS.items():
                    headers.setdefault(key, value)
                if set_cookie:
                    headers.append("set-cookie", f"{self.cookie_name(scope)}={quote(self.token or '')}; "
                                   "Path=/; HttpOnly; SameSite=Strict")
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _allowed(self, scope: Scope) -> bool:
        conn = HTTPConnection(scope)
        given = conn.query_params.get("token") or unquote(conn.cookies.get(self.cookie_name(scope), ""))
        auth = conn.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            given = auth[7:]
        assert self.token is not None
        return hmac.compare_digest(given.encode(), self.token.encode())

    @staticmethod
    def cookie_name(scope: Scope) -> str:
        """Per port: cookies do not separate ports, two daemons on one host would clash."""
        server = scope.get("server") or ("", 0)
        return f"botboard_token_{server[1]}"

    @staticmethod
    def _same_origin(scope: Scope) -> bool:
        """A browser page from another site may not open our websocket (CSWSH)."""
        conn = HTTPConnection(scope)
        origin = conn.headers.get("origin")
        if origin is None:  # not a browser (the CLI, tests): the token is the guard
            return True
        host = conn.headers.get("host", "")
        return origin.split("://", 1)[-1] == host
