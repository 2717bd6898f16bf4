"""One real daemon (with the simulated board) for the console tests, in a thread.

The daemon listens on a free loopback port with a token, so every test goes
through the same gate a network listener would. ``LiveDaemon.call`` runs a
function on the daemon's event loop (to change cells as a game would).
"""

from __future__ import annotations

import os

import asyncio
import json
import threading
import urllib.error
import urllib.request
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from botboard.console.app import create_app
from botboard.daemon import Daemon, DaemonConfig
from botboard.board.sim import free_tcp_port

from ..patience import ms, scaled, wait_for

TOKEN = "test-token-123"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class LiveDaemon:
    def __init__(self, data_dir: Path, game: str = "twin-tin-bots", layout: str | None = None,
                 **settings: Any) -> None:
        self.port = free_tcp_port()
        # settings: any other DaemonConfig field (faults, bringup...)
        config = DaemonConfig(console_port=self.port, token=TOKEN, game=game, layout=layout, **settings)
        if hasattr(config, "data_dir"):  # the session's journal and tile registry: not ./var
            config.data_dir = str(data_dir)
        self.daemon = Daemon(config)
        self.base = f"http://127.0.0.1:{self.port}"
        self.loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._main, daemon=True, name="test-daemon")

    def _main(self) -> None:
        async def main() -> None:
            self.loop = asyncio.get_running_loop()
            ready = asyncio.Event()
            self._task = asyncio.create_task(self.daemon.run(create_app, ready))
            await asyncio.wait({self._task, asyncio.create_task(ready.wait())},
                               return_when=asyncio.FIRST_COMPLETED)
            self._ready.set()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

        try:
            asyncio.run(main())
        except BaseException as err:  # shown by start()
            self._error = err
            self._ready.set()

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(scaled(30))
        if self._error:
            raise self._error
        wait_for(lambda: self.status()["link"]["connected"], 15, "the simulated board to connect")

    def stop(self) -> None:
        if self.loop and self._task:
            self.loop.call_soon_threadsafe(self._task.cancel)
        self._thread.join(scaled(10))

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run fn on the daemon's loop and return its result."""
        assert self.loop is not None
        future: Future[Any] = Future()

        def run() -> None:
            try:
                future.set_result(fn())
            except BaseException as err:
                future.set_exception(err)

        self.loop.call_soon_threadsafe(run)
        return future.result(scaled(10))

    @property
    def url(self) -> str:
        return f"{self.base}/?token={TOKEN}"

    def request(self, method: str, path: str, body: dict[str, Any] | None = None,
                token: str | None = TOKEN) -> tuple[int, Any]:
        headers = {"content-type": "application/json"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=scaled(10)) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            raw = err.read()
            return err.code, json.loads(raw) if raw.startswith(b"{") else raw.decode()

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        assert status == 200, body
        return body

    def post(self, path: str, body: dict[str, Any]) -> Any:
        status, reply = self.request("POST", path, body)
        assert status == 200, reply
        return reply

    def status(self) -> dict[str, Any]:
        return self.get("/api/status")  # type: ignore[no-any-return]


def running(tmp_path_factory: pytest.TempPathFactory, game: str = "twin-tin-bots",
            layout: str | None = None) -> Iterator[LiveDaemon]:
    """A daemon of ``game`` with its own data directory, for a fixture to yield from."""
    daemon = LiveDaemon(tmp_path_factory.mktemp(f"{game}-data"), game=game, layout=layout)
    daemon.start()
    yield daemon
    daemon.stop()


def empty_slots(live: LiveDaemon) -> None:
    """Hands take every tile off the board (an earlier test's game left some): a new game then
    starts at once instead of first asking for them off."""
    session = live.daemon.session
    for slot in live.call(lambda: sorted(session.table.contents())):
        live.post("/api/sim/remove", {"slot": slot})
    wait_for(lambda: not live.call(lambda: session.table.contents()), 10, "the slots to be empty")


@pytest.fixture(scope="package")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveDaemon]:
    yield from running(tmp_path_factory)


def _clicks_in_front() -> None:
    """Every Playwright action that waits for its target to stand still brings its page to the
    front first, as a person looks at the screen they touch. Headless Chromium gives a page behind
    others no animation frames, and Playwright's check that a target is still counts frames: a
    click on a phone's page while the console was in front took seconds, in front milliseconds."""
    from functools import wraps

    from playwright.sync_api import Locator, Page

    def fronted(action: Any, page_of: Callable[[Any], Any]) -> Any:
        @wraps(action)
        def act(self: Any, *args: Any, **kwargs: Any) -> Any:
            page_of(self).bring_to_front()
            return action(self, *args, **kwargs)
        act.fronted = True  # type: ignore[attr-defined]
        return act

    for cls, page_of in ((Locator, lambda loc: loc.page), (Page, lambda page: page)):
        for name in ("click", "dblclick", "check", "uncheck", "set_checked", "hover", "tap"):
            action = getattr(cls, name)
            if not getattr(action, "fronted", False):
                setattr(cls, name, fronted(action, page_of))


@pytest.fixture(autouse=True)
def _patient_expect() -> None:
    """Playwright's expect waits as long as the load at each test's start asks (its option
    is global: set again for every test, never left at an earlier, quieter, machine's)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=ms(15))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Debian chromium for a test module (never a downloaded browser)."""
    import tempfile

    from playwright.sync_api import sync_playwright

    _clicks_in_front()

    if not Path("/usr/bin/chromium").exists():
        if os.environ.get("CI"):  # CI installs it (.ci/setup --test): missing means broken
            pytest.fail("Debian's chromium is not installed: .ci/setup --test should have")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with sync_playwright() as p, tempfile.TemporaryDirectory(prefix="botboard-chromium-") as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1400, "height": 1000})
        yield context
        context.close()


def open_console(browser: Any, live: LiveDaemon) -> Iterator[Any]:
    """A console page, checked for script errors when the module is done with it."""
    from playwright.sync_api import expect

    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(live.url)
    expect(page.locator("#link-state")).to_have_text("connected", timeout=ms(10))
    yield page
    assert not errors, f"script errors in the console: {errors}"
    page.close()
