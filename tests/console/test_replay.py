"""The replay viewer: a whole recorded game of every table game stepped through in Chromium,
its pictures equal to what the live table showed; private views only once a game is over;
``--on-board`` lights the board and leaves a live game's journal untouched."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from playwright.sync_api import expect

from botboard import games
from botboard.board import layouts
from botboard.board.sim import SimBoard
from botboard.board.sim_control import SimControl
from botboard.link.connection import BoardConnection
from botboard.link.image import BoardImage
from botboard.session.host import make_session
from botboard.session.journal import Journal
from botboard.session.review import Review
from botboard.session.selfplay import Hands

from ..simboard import BOTBOARD, SimProcess, wait_for
from ..engine_words import broken
from ..patience import scaled

Looks = list[str]  # per board cell "palette/facing/effect"


def _looks(cells: dict[int, Any], count: int) -> Looks:
    return [f"{cells[b].palette}/{cells[b].facing}/{cells[b].effect}" for b in range(count)]


async def _record(game: str, data: Path, seed: int) -> tuple[int, dict[str, Looks]]:
    """A short selfplay game of ``game`` through the simulated board; the picture the table's
    board was given once each action had played (before the table's own marks), by state hash."""
    layout = layouts.load(games.table(game).default_layout(2))
    sim = SimBoard(layout.id)
    sim.start()
    conn = BoardConnection(sim.port, BoardImage.blank(len(layout.cells)))
    frames: dict[str, Looks] = {}

    def seen(event: dict[str, Any]) -> None:
        if event.get("event") == "view" and session.mode != "animate" and session.bmap is not None:
            frames[event["view"]["state_hash"]] = _looks(session.bmap.board(session._base), len(layout.cells))

    session = make_session(layout, conn, data, publish=seen, step_s=0.0, game=game)
    link = asyncio.create_task(conn.run())
    control = SimControl("127.0.0.1", sim.control_port)
    try:
        session.new_game(2, dict(games.declaration(game).quick_options), seed)
        await Hands(session, conn, control, seed).play()
        assert session.game_id is not None and session.mode == "over"
        return session.game_id, frames
    finally:
        link.cancel()
        conn.close()
        control.close()
        session.journal.close()
        sim.stop()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, tuple[int, dict[str, Looks]]]]:
    """One journal holding a whole short game of every table game (played at once, each
    through its own simulated board: they mostly wait for their boards)."""
    data = tmp_path_factory.mktemp("replay-data")
    names = games.table_names()

    async def record_all() -> list[tuple[int, dict[str, Looks]]]:
        return list(await asyncio.gather(*(_record(game, data, seed=3) for game in names)))

    return data, dict(zip(names, asyncio.run(record_all())))


class Viewer:
    """``botboard replay GAME --console-port 0``: the process and the address it printed."""

    def __init__(self, data: Path, game: int, *extra: str) -> None:
        self.proc = subprocess.Popen([BOTBOARD, "replay", str(game), "--console-port", "0",
                                      "--data-dir", str(data), *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith("review it: http://127.0.0.1:"), line + self._stderr()
        self.url = line.split(": ", 1)[1].strip()
        self.base = self.url.rsplit("/replay/", 1)[0]

    def _stderr(self) -> str:
        if self.proc.poll() is None:
            return ""
        assert self.proc.stderr is not None
        return self.proc.stderr.read()

    def request(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method="POST" if data else "GET",
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=scaled(30)) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(scaled(10))


@pytest.fixture
def viewer() -> Iterator[Any]:
    started: list[Viewer] = []

    def start(data: Path, game: int, *extra: str) -> Viewer:
        started.append(Viewer(data, game, *extra))
        return started[-1]

    yield start
    for one in started:
        one.stop()


@pytest.mark.parametrize("game", games.table_names())
def test_the_viewer_steps_through_a_whole_game_as_the_table_showed_it(
        game: str, recorded: Any, viewer: Any, browser: Any) -> None:
    data, games_ = recorded
    game_id, live = games_[game]
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(viewer(data, game_id).url)
    step = page.locator("#replay-step")
    expect(step).to_contain_text("step 0 of ")
    steps = int(step.inner_text().rsplit(" ", 1)[1]) + 1
    assert steps > 2, "a whole game has actions"
    seen: set[str] = set()
    for k in range(steps):
        if k:
            page.locator("#replay-forward").click()
        expect(step).to_have_text(f"step {k} of {steps - 1}")
        digest = step.get_attribute("data-hash")
        assert digest is not None
        looks = page.locator("#replay-arena g[data-cell]").evaluate_all("gs => gs.map(g => g.dataset.look)")
        if digest in live:  # a state the table rested on (a decision, a program): its frame
            assert looks == live[digest], f"{game} step {k}: the picture differs from the table's"
            seen.add(digest)
        if k:
            expect(page.locator("#replay-action")).not_to_have_text("the start of the game")
    # every state the table rested on is in the replay (only mid-animation hashes are not)
    assert seen == set(live), f"{game}: live frames the replay never showed: {set(live) - seen}"
    page.locator("#replay-back").click()
    expect(step).to_have_text(f"step {steps - 2} of {steps - 1}")
    labels = page.locator("#replay-arena text.index").all_text_contents()
    assert len(labels) == page.locator("#replay-arena g[data-cell]").count() and any(labels), \
        "the cells are labelled as the live console labels them"
    page.locator("#replay-seat").select_option("0")  # the game is over: the seat's own view
    expect(page.locator("#replay-seat-note")).to_contain_text("alone saw")
    expect(page.locator("#replay-private dt").first).not_to_be_empty()  # in words, not raw JSON
    shown = [page.locator("#replay-panel").inner_text(), page.locator("main").inner_text()]
    assert not broken(shown), broken(shown)
    assert not errors, errors
    page.close()


def _unfinished(data: Path, game: str = "botwars") -> int:
    """A game of ``game`` in the journal with two actions, not over."""
    journal = Journal.in_dir(data)
    try:
        engine = games.get(game)
        options = dict(games.declaration(game).quick_options)
        game_id = journal.create_game(game, 2, options, 5, games.table(game).default_layout(2))
        state = engine.new_game(2, options, 5)
        for _ in range(2):
            action = engine.legal_actions(state)[0]
            text = engine.action_to_str(state, action)
            state, _ = engine.apply(state, action)
            journal.append(game_id, text, engine.state_hash(state))
        return game_id
    finally:
        journal.close()


def test_a_private_view_of_an_unfinished_game_is_refused_in_words(recorded: Any, viewer: Any) -> None:
    data, games_ = recorded
    game_id = _unfinished(data)
    view = viewer(data, game_id)
    status, body = view.request(f"/api/replay/{game_id}")
    assert status == 200 and body["over"] is False and body["steps"] == 3
    status, body = view.request(f"/api/replay/{game_id}/step/2")
    assert status == 200 and body["action"]
    status, body = view.request(f"/api/replay/{game_id}/step/1/seat/0")
    assert status == 403 and "only after the game has ended" in body["error"]
    finished = games_["botwars"][0]
    status, body = view.request(f"/api/replay/{finished}/step/1/seat/1")
    assert status == 200 and body["seat"] == 1 and "private" in body
    listed = {g["id"]: g for g in view.request("/api/replay")[1]["games"]}
    assert "seed" not in listed[game_id] and listed[finished]["seed"] == 3  # it deals hidden hands
    status, body = view.request(f"/api/replay/{game_id}/step/9")
    assert status == 404 and "steps 0 to 2" in body["error"]
    status, body = view.request("/api/replay/999")
    assert status == 404 and "no game 999" in body["error"]


def _rows(path: Path) -> list[Any]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT * FROM games").fetchall() + db.execute("SELECT * FROM actions").fetchall()
    finally:
        db.close()


def test_on_board_lights_the_step_and_leaves_a_live_game_untouched(recorded: Any, viewer: Any) -> None:
    data, games_ = recorded
    live_game = _unfinished(data)
    table = Journal.in_dir(data)  # a live table holds the journal open meanwhile
    before = _rows(table.path)
    finished = games_["botwars"][0]
    review = Review.of(table, finished)
    board = SimProcess("--layout", review.layout.id)
    try:
        view = viewer(data, finished, "--on-board", "--port", board.port)
        for k in (1, len(review.steps) - 1):
            status, body = view.request(f"/api/replay/{finished}/show", {"step": k})
            assert status == 200, body
            want = bytes(b for c in review.board_cells(k) for b in (c.palette, c.look))
            wait_for(lambda: bytes.fromhex(board.control("cells")["cells"]) == want, 15,
                     f"the board to show step {k}")
        status, body = view.request(f"/api/replay/{live_game}/show", {"step": 2})
        assert status == 200  # an unfinished game's public steps may be shown too...
        assert _rows(table.path) == before  # ...and nothing of the journal changed
    finally:
        board.stop()
        table.close()


def test_replay_without_a_console_still_prints_the_hash(recorded: Any) -> None:
    data, games_ = recorded
    game_id, live = games_["volt"]
    out = subprocess.run([BOTBOARD, "replay", str(game_id), "--data-dir", str(data)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() in live
    out = subprocess.run([BOTBOARD, "replay", str(game_id), "--on-board", "--data-dir", str(data)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "go with --console-port" in out.stderr
