"""The conformance suite as a pytest plugin (entry point ``pytest11``: botboard's pyproject.toml).

    pytest --botboard-game NAME        the suite over game NAME (repeat it, or `all`), beside the
                                       tests of the folder pytest runs in
    botboard check-game NAME           the same, through botboard's command

The suite's modules (``suite/``) take the game from the ``botboard_game`` argument, which this
plugin fills in: with the games asked for, or every installed game when none is asked for
(botboard's own tests/conformance runs them so). A game's own table tests can use the
fixtures below (``game_engine``, ``game_table``, ``judge_station``, ``random_positions``,
``botboard_cli``) with ``--botboard-game NAME``.
"""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any, Callable

import pytest

SUITE = Path(__file__).resolve().parent / "suite"
MEASURES = pytest.StashKey[list]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("botboard", "botboard's conformance suite (docs/adding-a-game.md)")
    group.addoption("--botboard-game", action="append", default=[], metavar="NAME",
                    help="run botboard's conformance suite over the installed game NAME (repeat it for "
                         "several; `all`: every installed game)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "botboard_cases(argname, cases): a conformance case per game and per "
                                       "(id, value) of cases(game)")
    config.stash[MEASURES] = []
    if config.getoption("botboard_game"):
        selected(config)  # an unknown game is a usage error before anything runs
        config.args.extend(str(p) for p in sorted(SUITE.glob("check_*.py")))


def selected(config: pytest.Config) -> list[str]:
    """The games the suite runs over: those asked for by ``--botboard-game``, else every installed one."""
    from .. import games

    asked = config.getoption("botboard_game")
    if not asked or "all" in asked:
        return games.names()
    out = []
    for name in asked:
        try:
            out.append(games.canonical(name))
        except games.GameError as err:
            broken = [p for p in games.problems() if name in p]
            raise pytest.UsageError(f"--botboard-game {name}: " + ("; ".join(broken) if broken else
                                    f"{err}; install the game's package first (pip install -e .)")) from None
    return sorted(set(out))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "botboard_game" not in metafunc.fixturenames:
        return
    names = selected(metafunc.config)
    marker = metafunc.definition.get_closest_marker("botboard_cases")
    if marker is None:
        metafunc.parametrize("botboard_game", names, ids=names)
        return
    argname, cases = marker.args
    rows = [(name, ident, value) for name in names for ident, value in cases(name)]
    metafunc.parametrize(("botboard_game", argname), [(n, v) for n, _, v in rows],
                         ids=[f"{n}{i}" for n, i, _ in rows])


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    lines = config.stash.get(MEASURES, [])
    if lines:
        terminalreporter.section("botboard conformance: hidden information measured")
        for line in lines:
            terminalreporter.write_line(line)


def record(config: pytest.Config, line: str) -> None:
    """A line for the run's summary (what a check measured)."""
    config.stash.setdefault(MEASURES, []).append(line)


# -- fixtures for a game's own table tests -------------------------------------------------
@pytest.fixture
def game_engine(botboard_game: str) -> Any:
    """The game's rules engine (``games.get``)."""
    from .. import games

    return games.get(botboard_game)


@pytest.fixture
def game_table(botboard_game: str) -> Any:
    """A fresh table mapping of the game."""
    from .. import games

    return games.table(botboard_game)()


@pytest.fixture
def judge_station(game_table: Any) -> Callable[..., Any]:
    """``judge_station(state, seat, tiles, settings=None)``: the Verdict for ``tiles`` laid in the
    seat's station slots 0, 1, ... (a TileError in a slot is a tag that could not be read)."""
    from .play import station_slots

    def judge(state: Any, seat: int, tiles: list[Any], settings: dict[str, Any] | None = None) -> Any:
        slots = station_slots(game_table)[:len(tiles)]
        reading = game_table.read_station(state, seat, tiles, slots)
        return game_table.judge(state, seat, reading, slots, settings or {})

    return judge


@pytest.fixture
def random_positions(botboard_game: str) -> Callable[..., list[Any]]:
    """``random_positions(players, count, seed=3, stride=5, options=None)``: states along a random game."""
    from .play import positions

    return partial(positions, botboard_game)


@pytest.fixture
def botboard_cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``botboard_cli(*args, timeout=400)``: the botboard command of this interpreter, its output as text."""
    def run(*args: str, timeout: float = 400) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "botboard", *args], capture_output=True, text=True,
                              timeout=timeout)

    return run
