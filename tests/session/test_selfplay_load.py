"""Slow is never wrong: on a machine loaded far past its cores, selfplay of every table game
still ends, through the simulated board, with no press lost and no wait run out.

The load is made here: busy processes, at least four per core, bounded in time. To keep
the cost small each game is a short one (the declaration's quick options), and only its
end is played through the board: the engine plays a random game to its end, the journal
keeps all of it but the last actions, and selfplay resumes it there (as after a killed
host).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from botboard import games
from botboard.board.sim_control import SimControl, SimControlError
from botboard.session.journal import Journal

from ..simboard import BOTBOARD

BUSY_PER_CORE = 4  # load >= 8 on 2 cores
LEFT = 2  # actions left for the hands (their random moves may take a few more)
BUSY_S = 600  # a busy process stops after this, whatever happens to the test


@pytest.fixture(scope="module")
def loaded_machine() -> Iterator[int]:
    """Busy processes, BUSY_PER_CORE a core, for the module's tests; how many."""
    count = BUSY_PER_CORE * (os.cpu_count() or 1)
    spin = f"import time\nend = time.monotonic() + {BUSY_S}\nwhile time.monotonic() < end: pass\n"
    busy = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(count)]
    try:
        yield count
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()


def _near_the_end(data: Path, name: str, seed: int) -> int:
    """A journal holding a random 2-player game of ``name`` but its last LEFT actions;
    how many it holds."""
    engine, rng = games.get(name), random.Random(seed)
    options = dict(games.declaration(name).quick_options)  # a short game, as its declaration says
    state, played = engine.new_game(2, options, seed), []
    while engine.outcome(state) is None:
        legal = engine.legal_actions(state)
        text = engine.action_to_str(state, legal[rng.randrange(len(legal))])
        state, _ = engine.apply_str(state, text)
        played.append((text, engine.state_hash(state)))
    journal = Journal.in_dir(data)
    try:
        game_id = journal.create_game(name, 2, options, seed, games.table(name).default_layout(2))
        for text, digest in played[:-LEFT]:
            journal.append(game_id, text, digest)
    finally:
        journal.close()
    return len(played) - LEFT


@pytest.mark.timeout(900)  # one short game; a loaded machine is slow, never wrong
@pytest.mark.parametrize("name", games.table_names())
def test_selfplay_ends_on_a_machine_loaded_past_its_cores(tmp_path: Path, name: str,
                                                          loaded_machine: int) -> None:
    kept = _near_the_end(tmp_path, name, 3)
    done = subprocess.run([BOTBOARD, "selfplay", "--game", name, "--resume", "--seed", "3",
                           "--data-dir", str(tmp_path)], capture_output=True, text=True, timeout=840)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    assert result["game_name"] == name and result["reason"] and result["actions"] > kept
    assert "Traceback" not in done.stderr


def test_a_control_socket_that_never_answers_is_said_in_one_line() -> None:
    async def ask() -> str:
        async def hang_up(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.close()  # as a board whose reply did not fit its heap

        server = await asyncio.start_server(hang_up, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        ctl = SimControl("127.0.0.1", port, patience_s=0.5)
        try:
            await ctl.button(3, "press")
        except SimControlError as err:
            return str(err)
        finally:
            ctl.close()
            server.close()
        return "answered"

    said = asyncio.run(ask())
    assert "button" in said and "control socket" in said and "\n" not in said
