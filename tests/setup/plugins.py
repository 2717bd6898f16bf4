"""Game packages made importable without pip: a folder on PYTHONPATH with a ``NAME.dist-info``
(METADATA and entry_points.txt), which importlib.metadata finds like an installed package's."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from ..simboard import BOTBOARD


def register(meta: Path, package: str, games: dict[str, str]) -> None:
    """Declare distribution ``package`` with entry points ``games`` (name -> "module:attribute")."""
    info = meta / f"{package.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[botboard.games]\n" + "".join(
        f"{name} = {ref}\n" for name, ref in games.items()))


def env(*folders: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, folders))}


def botboard(folders: list[Path], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, *args], capture_output=True, text=True, env=env(*folders), timeout=timeout)
