"""A small client of a running daemon's console API, for `botboard status/trace/leds`.

Stdlib HTTP (urllib) and the ``websockets`` sync client; every failure
becomes a CliError that says what is wrong and what to do.
"""

from __future__ import annotations

import argparse
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Iterator

from . import CliError
from . import values

DEFAULT_CONSOLE = "http://127.0.0.1:8700"


def add_console_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--console", default=os.environ.get("BOTBOARD_CONSOLE", DEFAULT_CONSOLE),
                   metavar="URL", help="the daemon's console address (default "
                   f"{DEFAULT_CONSOLE}, or $BOTBOARD_CONSOLE)")
    p.add_argument("--token", default=os.environ.get("BOTBOARD_TOKEN"),
                   help="the daemon's token, if it has one (or $BOTBOARD_TOKEN)")
    p.add_argument("--timeout", type=values.number(0.01, 3600), default=5.0, help="seconds to wait for the daemon (default 5)")


class ConsoleClient:
    def __init__(self, base: str, token: str | None, timeout: float = 5.0) -> None:
        try:
            parts = urllib.parse.urlsplit(base if "://" in base else f"http://{base}")
            parts.port  # a port that is not a number raises here, not at the first request
        except ValueError:  # a lone "[" (an IPv6 address cut short)
            parts = urllib.parse.urlsplit("")
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise CliError(f"--console {base!r} is not an http:// address of a daemon")
        query = urllib.parse.parse_qs(parts.query)
        given = query.get("token")
        self.token = token or (given[0] if given else None)  # the URL `botboard run` printed
        self.base = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"
        self.timeout = timeout

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "ConsoleClient":
        return cls(args.console, args.token, args.timeout)

    def get(self, path: str) -> Any:
        return self._call("GET", path, None)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self._call("POST", path, body)

    def _call(self, method: str, path: str, body: dict[str, Any] | None) -> Any:
        headers = {"accept": "application/json"}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["content-type"] = "application/json"
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            raise CliError(self._http_error(err)) from None
        except (urllib.error.URLError, OSError) as err:
            reason = getattr(err, "reason", err)
            raise CliError(f"no botboard daemon answers at {self.base} ({reason}): start one with "
                           "`botboard run`, or give its address with --console URL") from None

    def _http_error(self, err: urllib.error.HTTPError) -> str:
        try:
            detail = json.loads(err.read()).get("error", "")
        except (ValueError, AttributeError):
            detail = ""
        if err.code == 401:
            return (f"the daemon at {self.base} wants its token: give --token TOKEN (printed by "
                    "`botboard run` in the console address)")
        if err.code == 404:
            return f"{self.base} answered 404: is it a botboard daemon (and this version)?"
        return detail or f"the daemon answered HTTP {err.code}"

    def events(self, open_timeout: float | None = None,
               on_open: Callable[[], None] | None = None) -> Iterator[dict[str, Any]]:
        """The live websocket's events, one dict each, until the daemon goes away."""
        from websockets.exceptions import ConnectionClosed, InvalidStatus
        from websockets.sync.client import connect

        url = ("wss" if self.base.startswith("https") else "ws") + self.base[self.base.index(":"):] + "/ws"
        if self.token:
            url += "?" + urllib.parse.urlencode({"token": self.token})
        try:
            ws = connect(url, open_timeout=open_timeout or self.timeout)
        except InvalidStatus as err:
            raise CliError(f"the daemon refused the live feed (HTTP {err.response.status_code}): "
                           "give --token TOKEN") from None
        except (OSError, TimeoutError) as err:
            raise CliError(f"no botboard daemon answers at {self.base} ({err}): start one with "
                           "`botboard run`, or give its address with --console URL") from None
        if on_open:
            on_open()
        with ws:
            try:
                for raw in ws:
                    yield json.loads(raw)
            except ConnectionClosed as err:
                if err.rcvd and err.rcvd.code == 1008:
                    raise CliError("the daemon refused the live feed: give --token TOKEN") from None
                raise CliError(f"the daemon at {self.base} closed the live feed") from None
