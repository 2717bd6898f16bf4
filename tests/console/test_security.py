"""The console's gate: loopback by default, a token for anything else, on every request."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from botboard.daemon import ConfigError, Daemon, DaemonConfig, check_listen
from botboard.board.sim import free_tcp_port

from ..simboard import BOTBOARD
from .conftest import TOKEN, LiveDaemon
from ..patience import scaled


@pytest.mark.parametrize("listen", ["0.0.0.0", "192.168.1.20", "::"])
def test_a_network_listen_without_a_token_is_refused(listen: str) -> None:
    with pytest.raises(ConfigError, match="--token"):
        Daemon(DaemonConfig(listen=listen))
    assert check_listen("127.0.0.1", None) is None  # loopback needs none
    assert check_listen(listen, "auto")  # a made-up one is fine


def test_botboard_run_refuses_before_starting_anything() -> None:
    result = subprocess.run([BOTBOARD, "run", "--listen", "0.0.0.0", "--console-port", "1"],
                            capture_output=True, text=True, timeout=scaled(30))
    assert result.returncode == 2
    assert "--token" in result.stderr and "127.0.0.1" in result.stderr


@pytest.mark.parametrize("method,path,body", [
    ("GET", "/", None), ("GET", "/api/status", None), ("GET", "/api/trace", None),
    ("GET", "/static/js/main.js", None), ("POST", "/api/sim/place", {"slot": 0}),
    ("POST", "/api/game/undo", {"confirm": True}), ("POST", "/api/tools/config", {"brightness": 1}),
])
def test_requests_without_the_right_token_are_rejected(live: LiveDaemon, method: str, path: str,
                                                        body: dict[str, object] | None) -> None:
    for token in (None, "wrong", TOKEN[:-1]):
        status, reply = live.request(method, path, body, token=token)
        assert status == 401, (path, token)
        assert "token" in reply["error"]
    assert live.status()["tools"]["slots"][0]["present"] is False  # nothing was placed


def test_the_token_opens_the_page_and_sets_a_same_site_cookie(live: LiveDaemon) -> None:
    import urllib.request

    with urllib.request.urlopen(f"{live.base}/?token={TOKEN}", timeout=scaled(10)) as response:
        cookie = response.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        assert response.headers["x-frame-options"] == "DENY"
        assert "default-src 'self'" in response.headers["content-security-policy"]
    name_value = cookie.split(";")[0]
    request = urllib.request.Request(f"{live.base}/api/status", headers={"cookie": name_value})
    with urllib.request.urlopen(request, timeout=scaled(10)) as response:
        assert response.status == 200


def test_websockets_need_the_token_and_our_origin(live: LiveDaemon) -> None:
    ws_url = f"ws://127.0.0.1:{live.port}/ws"
    for url in (ws_url, f"{ws_url}?token=wrong"):
        with pytest.raises(InvalidStatus) as refused:
            connect(url, open_timeout=scaled(5)).close()
        assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus):  # another site's page, even holding the token
        connect(f"{ws_url}?token={TOKEN}", origin="http://evil.example", open_timeout=scaled(5)).close()  # type: ignore[arg-type]
    with connect(f"{ws_url}?token={TOKEN}", open_timeout=scaled(5)) as ws:
        assert json.loads(ws.recv(timeout=scaled(5)))["kind"] == "status"


def test_no_file_outside_the_static_assets_is_served(live: LiveDaemon) -> None:
    for path in ("/static/../../daemon.py", "/static/%2e%2e/app.py", "/static/../../../../pyproject.toml",
                 "/api/../pyproject.toml"):
        status, _ = live.request("GET", path)
        assert status == 404, path


def start_daemon(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    """`botboard run` with a board port that is not there (no simulated board: cheap),
    and the console address it printed."""
    port = free_tcp_port()
    proc = subprocess.Popen([BOTBOARD, "run", "--port", str(tmp_path / "no-such-tty"),
                             "--console-port", str(port), "--data-dir", str(tmp_path), *args],
                            stdout=subprocess.PIPE, stderr=(tmp_path / "stderr").open("w"), text=True)
    lines: queue.Queue[str] = queue.Queue()
    stdout = proc.stdout
    assert stdout is not None

    def read() -> None:  # a thread, so a daemon that never prints fails in time
        for line in stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    try:
        while True:
            line = lines.get(timeout=scaled(30))
            if line.startswith("console: "):
                return proc, line
    except BaseException:
        proc.kill()
        raise


@pytest.mark.parametrize("listen", ["0.0.0.0", "127.0.0.1"])
def test_token_auto_is_made_up_and_kept_out_of_a_log(tmp_path: Path, listen: str) -> None:
    """Under a pipe (a service's journal) the address is printed without the token, which
    waits in the data directory for the machine's owner."""
    proc, line = start_daemon(tmp_path, "--listen", listen, "--token", "auto")
    try:
        url, kept = line.split()[1], tmp_path / "console-token"
        assert "token=" not in url and str(kept) in line, line
        token = kept.read_text().strip()
        assert token != "auto" and len(token) >= 16 and token not in line
        assert kept.stat().st_mode & 0o777 == 0o600
        base = f"http://127.0.0.1:{urlparse(url).port}"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}/api/status", timeout=scaled(10))
        assert refused.value.code == 401
        with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=scaled(10)) as response:
            assert response.status == 200

        # the daemon runs, its board does not answer: status says so, exit 1 (not 0, not 2)
        result = subprocess.run([BOTBOARD, "status", "--console", f"{base}/?token={token}"],
                                capture_output=True, text=True, timeout=scaled(30))
        assert result.returncode == 1, result.stderr
        link = json.loads(result.stdout)["link"]
        assert link["connected"] is False and "no-such-tty" in link["last_error"]
        assert "the board is not connected" in result.stderr
    finally:
        proc.terminate()
        proc.wait(scaled(10))


def test_a_configured_token_is_not_printed_where_a_log_keeps_it(tmp_path: Path) -> None:
    proc, line = start_daemon(tmp_path, "--listen", "0.0.0.0", "--token", "S3cret-console-token")
    try:
        assert "S3cret" not in line and "?token=" not in line.split()[1], line
        assert "--token" in line and "settings file" in line, line
        assert not (tmp_path / "console-token").exists()
    finally:
        proc.terminate()
        proc.wait(scaled(10))


def test_the_console_works_offline_no_file_names_another_host() -> None:
    """Everything the page loads is served by the daemon: no CDN, no font or script from elsewhere
    (the content-security-policy header enforces it in the browser; this checks the files)."""
    import re

    static = Path(__file__).parents[2] / "host" / "botboard" / "console" / "static"
    namespaces = {"http://www.w3.org/2000/svg"}  # an XML namespace name, never fetched
    found = {}
    for path in static.rglob("*"):
        if path.is_file():
            urls = set(re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"')]*", path.read_text()))
            if urls - namespaces:
                found[path.name] = sorted(urls - namespaces)
    assert found == {}
    page = (static / "index.html").read_text()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and all(not s.startswith(("http", "//")) for s in sources), sources


def _raw(live: LiveDaemon, method: str, path: str, body: bytes = b"", **headers: str) -> tuple[int, str]:
    request = urllib.request.Request(live.base + path, data=body or None, method=method,
                                     headers={"authorization": f"Bearer {TOKEN}", **headers})
    try:
        with urllib.request.urlopen(request, timeout=scaled(10)) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def test_another_sites_page_cannot_change_the_game(live: LiveDaemon) -> None:
    live.post("/api/game/new", {"players": 2, "seed": 1})
    before = live.get("/api/game")["view"]
    speed = json.dumps({"speed": 4.5}).encode()
    for content_type in ("text/plain", "application/json"):  # a form post needs no preflight
        status, reply = _raw(live, "POST", "/api/game/speed", speed, origin="http://evil.example",
                             **{"content-type": content_type})
        assert status == 403 and "another site" in reply
    assert live.get("/api/game")["view"] == before
    status, _ = _raw(live, "POST", "/api/game/speed", json.dumps({"speed": before["speed"]}).encode(),
                     origin=live.base, **{"content-type": "application/json"})
    assert status == 200  # our own page may


def test_a_loopback_console_answers_only_to_loopback_names(live: LiveDaemon) -> None:
    status, reply = _raw(live, "GET", "/api/status", host=f"evil.example:{live.port}")  # DNS rebinding
    assert status == 421 and "localhost" in reply
    for host in (f"localhost:{live.port}", f"127.0.0.1:{live.port}"):
        assert _raw(live, "GET", "/api/status", host=host)[0] == 200


def test_bodies_have_a_size_limit_and_deep_json_is_a_clear_error(live: LiveDaemon) -> None:
    status, reply = _raw(live, "POST", "/api/game/speed", b"{" + b" " * (70 * 1024) + b"}",
                         **{"content-type": "application/json"})
    assert status == 413 and "bytes" in reply
    status, reply = _raw(live, "POST", "/api/game/speed", b"[" * 30_000 + b"]" * 30_000,
                         **{"content-type": "application/json"})
    assert status == 400 and "too deeply" in reply


def test_listen_names_that_only_start_like_loopback_need_a_token() -> None:
    with pytest.raises(ConfigError):
        check_listen("127.0.0.1.example", None)
    assert check_listen("127.0.0.2", None) is None and check_listen("::1", None) is None


def test_the_printed_address_is_one_a_tablet_can_open() -> None:
    daemon = Daemon(DaemonConfig(listen="0.0.0.0", token="t0k", console_port=8799))
    assert "0.0.0.0" not in daemon.console_url and daemon.console_url.endswith(":8799/?token=t0k")
    assert Daemon(DaemonConfig()).console_url == "http://127.0.0.1:8700/"
