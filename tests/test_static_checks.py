"""The host package type-checks with mypy, and no file has unused or undefined names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def test_host_code_type_checks() -> None:
    proc = subprocess.run([str(BIN / "mypy"), "host/botboard"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_unused_or_undefined_names_anywhere() -> None:
    proc = subprocess.run([str(BIN / "ruff"), "check", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
