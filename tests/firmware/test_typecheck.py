"""firmware/ and shared/ type-check against the MicroPython rp2 stubs from PyPI.

The stubs go to .venv/mpstubs (pip --target, pinned versions).  mypy also
reports errors inside the stub files themselves; those are filtered out, and
any error left in a project file fails the test.  The unix-only parts (the
simulated board: firmware/bbfw/sim, firmware/bbfw/hal_sim.py) are excluded.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STUBS = ROOT / ".venv" / "mpstubs"
PINS = ["micropython-rp2-rpi-pico-stubs==1.29.0.post1", "micropython-stdlib-stubs==1.29.0.post2"]
UNIX_ONLY = ("firmware/bbfw/sim/", "firmware/bbfw/hal_sim.py", "firmware/bbfw/sim_main.py")


def ensure_stubs() -> None:
    if (STUBS / "rp2" / "__init__.pyi").exists() and (STUBS / "stdlib").exists():
        return
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--target", str(STUBS),
                           "--no-deps", *PINS], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        text = proc.stderr + proc.stdout
        if "Could not find" in text or "connection" in text.lower() or "resolve" in text.lower():
            pytest.skip("cannot reach PyPI to install the MicroPython stubs: " + text.strip()[-300:])
        raise AssertionError("pip install of the stubs failed:\n" + text)


def project_files() -> list[str]:
    files = []
    for d in ("firmware/bbfw", "shared/bbshared"):
        for p in sorted((ROOT / d).rglob("*.py")):
            rel = p.relative_to(ROOT).as_posix()
            if "__pycache__" not in rel and not rel.startswith(UNIX_ONLY):
                files.append(rel)
    return files


def test_firmware_and_shared_type_check_against_rp2_stubs() -> None:
    ensure_stubs()
    files = project_files()
    assert "firmware/bbfw/drivers/ws2812.py" in files
    env = dict(os.environ, MYPYPATH=os.pathsep.join([str(STUBS), "firmware", "shared"]))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(STUBS), "--no-site-packages",
         "--explicit-package-bases", "--no-incremental", "--cache-dir", os.devnull,
         "--python-version", "3.11", "--show-error-codes", "--no-error-summary", *files],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    ours = [line for line in proc.stdout.splitlines()
            if ": error:" in line and not line.startswith(str(STUBS)) and ".venv" not in line]
    assert not ours, "type errors in project files:\n" + "\n".join(ours)
    assert "Traceback" not in proc.stderr, proc.stderr
