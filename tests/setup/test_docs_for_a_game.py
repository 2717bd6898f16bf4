"""`botboard docs --game NAME` writes a game of another package's pictures and palette page into
that package's own folder, run from anywhere; `botboard docs --check` names such a game's files
without a traceback; every installed game is named, with its package, on the palettes page and in
the hardware tables."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from botboard import games
from botboard.resources import ROOT

from ..simboard import BOTBOARD
from .plugins import botboard, env, register

PICTURES = '''"""Two LED pictures of the game (what `pictures=` in a declaration points to)."""


def pictures():
    return {"drawn-legend.svg": "<svg>legend</svg>\\n", "drawn-start.svg": "<svg>start</svg>\\n"}
'''


def _game_with_pictures(tmp_path: Path) -> tuple[Path, Path]:
    made = botboard([], "new-game", "drawn", "--dir", str(tmp_path))
    assert made.returncode == 0, made.stderr
    module = tmp_path / "drawn" / "botboard_drawn"
    (module / "pictures.py").write_text(PICTURES)
    declaration = module / "declaration.py"
    text = declaration.read_text()
    declaration.write_text(re.sub(r"(\n\s*engine=)", r'\n    pictures="botboard_drawn.pictures:pictures",\1', text, 1))
    meta = tmp_path / "meta"
    register(meta, "botboard-drawn", {"drawn": "botboard_drawn.declaration:GAME"})
    return tmp_path / "drawn", meta


def test_docs_game_writes_into_the_games_own_package_from_outside_the_checkout(tmp_path: Path) -> None:
    folder, meta = _game_with_pictures(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    def docs(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([BOTBOARD, "docs", *args], capture_output=True, text=True, timeout=120,
                              cwd=elsewhere, env=env(folder, meta))

    done = docs("--game", "drawn")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    written = folder / "botboard_drawn" / "docs"
    assert sorted(p.name for p in written.iterdir()) == ["drawn-legend.svg", "drawn-start.svg",
                                                         "palette-drawn.svg", "palette.md"]
    assert (written / "drawn-start.svg").read_text() == "<svg>start</svg>\n"
    page = (written / "palette.md").read_text()
    assert page.startswith("# LED palette: Drawn") and "package botboard-drawn" in page
    assert "](palette-drawn.svg)" in page and "| 0 |" in page
    assert {line.removeprefix("wrote ") for line in done.stdout.splitlines()} == \
        {str(p) for p in written.iterdir()}
    assert list(elsewhere.iterdir()) == []
    again = docs("--game", "drawn", "--check")
    assert again.returncode == 0 and again.stdout == "", again.stdout + again.stderr
    (written / "palette.md").write_text("edited\n")
    stale = docs("--game", "drawn", "--check")
    assert stale.returncode == 1 and f"stale: {written / 'palette.md'}" in stale.stdout

    whole = docs("--check")  # every game: the newcomer's files are named, never a traceback
    assert "Traceback" not in whole.stderr and whole.stderr == "", whole.stderr
    assert f"stale: {written / 'palette.md'}" in whole.stdout
    assert "stale: docs/palettes.md" in whole.stdout  # it does not name the newcomer yet


def test_docs_for_a_game_not_installed_is_one_line() -> None:
    done = botboard([], "docs", "--game", "no-such")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "unknown game 'no-such'" in done.stderr


def test_the_palettes_page_and_hardware_tables_name_every_game_and_its_package() -> None:
    palettes = (ROOT / "docs" / "palettes.md").read_text()
    tables = {doc: (ROOT / "hardware" / doc).read_text() for doc in ("power.md", "bom.md", "wiring.md")}
    for name in games.names():
        declaration = games.declaration(name)
        row = f"| {declaration.title} (`{name}`) | {declaration.package} |"
        assert row in palettes, row
        for doc, text in tables.items():
            assert row in text, (doc, row)
    for name in games.names():
        declaration = games.declaration(name)
        if declaration.package != "botboard":  # its boards are counted like botboard's own
            for board in declaration.board_files():
                assert f"| `{board.stem}` |" in tables["power.md"] and f"`{board.stem}`" in tables["bom.md"]


def test_a_page_the_declaration_names_but_lacks_is_said(tmp_path: Path) -> None:
    folder, meta = _game_with_pictures(tmp_path)
    declaration = folder / "botboard_drawn" / "declaration.py"
    declaration.write_text(re.sub(r"(\n\s*engine=)", r'\n    docs=("docs/playing-drawn.md",),\1',
                                  declaration.read_text(), 1))
    assert botboard([folder, meta], "docs", "--game", "drawn").returncode == 0
    checked = botboard([folder, meta], "docs", "--game", "drawn", "--check")
    assert checked.returncode == 1 and checked.stderr == "", checked.stderr
    assert checked.stdout.splitlines() == [
        "missing: drawn (botboard-drawn) declares the page 'docs/playing-drawn.md' in `docs`, but "
        f"{folder / 'botboard_drawn' / 'docs' / 'playing-drawn.md'} does not exist: write it, or drop it "
        "from the declaration"]
    (folder / "botboard_drawn" / "docs" / "playing-drawn.md").write_text("# Drawn\n")
    assert botboard([folder, meta], "docs", "--game", "drawn", "--check").returncode == 0
