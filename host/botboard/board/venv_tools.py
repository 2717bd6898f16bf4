"""Finding the command-line tools the project installs beside its Python."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def venv_tool(name: str, package: str) -> str:
    """The path of ``name`` from this environment (else PATH); FileNotFoundError says what to install."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} not found: .venv/bin/pip install {package} "
                                "(or run bash .ci/setup)")
    return found
