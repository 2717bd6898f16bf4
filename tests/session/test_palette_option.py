"""The colour-blind palette reaches the board: `run --palette` -> daemon -> session -> SET_PALETTE."""

from __future__ import annotations

from pathlib import Path

import pytest

from botboard import games
from botboard.board import layouts
from botboard.cli import build_parser
from botboard.daemon import ConfigError, Daemon, DaemonConfig
from botboard.session.journal import Journal
from botboard.session.palette import PaletteError, colours
from botboard.session.session import GameSession

from .helpers import FakeBoard

TABLES = [("twin-tin-bots", "ttb-small"), ("botwars", "botwars"), ("volt", "volt")]


def session(tmp: Path, game: str, layout: str, palette: str = "standard") -> tuple[GameSession, FakeBoard]:
    board = FakeBoard()
    return GameSession(layouts.load(layout), Journal.in_dir(tmp), board, step_s=0, game=game,
                       palette=palette), board


@pytest.mark.parametrize("game,layout", TABLES)
def test_the_board_gets_the_chosen_palette(tmp_path: Path, game: str, layout: str) -> None:
    doc = games.table(game).palette_doc
    standard, board = session(tmp_path / "a", game, layout)
    assert board.palette == list(colours(doc, "standard")) == list(games.table(game).palette)
    blind, board = session(tmp_path / "b", game, layout, "colourblind")
    assert board.palette == list(colours(doc, "colourblind")) != list(colours(doc, "standard"))
    # same names, same indices: the game's code never knows which palette plays
    assert len(board.palette) == 16 and blind.mapping.palette_index == standard.mapping.palette_index


def test_the_console_can_switch_palettes_mid_game(tmp_path: Path) -> None:
    s, board = session(tmp_path, "twin-tin-bots", "ttb-small")
    s.new_game(2)
    s.use_palette("colourblind")
    assert s.palette == "colourblind"
    assert board.palette == list(s.mapping.palette_for("colourblind"))
    with pytest.raises(PaletteError, match="standard, colourblind"):
        s.use_palette("sepia")
    assert s.palette == "colourblind"


def test_an_unknown_palette_is_refused_at_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match="--palette: no palette 'sepia'"):
        Daemon(DaemonConfig(palette="sepia", data_dir=str(tmp_path)))
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--palette", "sepia"])
    assert "colourblind" in capsys.readouterr().err
    assert build_parser().parse_args(["run", "--palette", "colourblind"]).palette == "colourblind"


@pytest.mark.parametrize("game,layout", TABLES)
def test_the_legend_names_every_lit_entry(game: str, layout: str) -> None:
    mapping = games.table(game)
    legend = mapping.legend("colourblind")
    assert [e["name"] for e in legend] == [n for n in mapping.palette_index if n != "off"]
    assert all(e["meaning"] and e["hex"].startswith("#") for e in legend)
