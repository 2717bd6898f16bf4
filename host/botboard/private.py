"""Files that hold secrets, kept like keys: the journal (every seat's hand and the seeds that
deal them), a room's record and keys, the settings file. Each is made readable by its owner
only, and its data directory 0700, whatever the umask (docs/journal.md, "Secrets at rest")."""

from __future__ import annotations

import os
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> Path:
    """``path`` as a folder; made 0700 when this makes it (a folder that exists is left as its
    owner set it: `botboard doctor` says when others can read it)."""
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True)
        os.chmod(path, DIR_MODE)  # mkdir's mode passes through the umask; chmod does not
    return path


def private_file(path: Path) -> Path:
    """``path`` as a file only its owner reads: made empty and 0600 if missing (SQLite then
    gives its -wal and -shm files the same mode), else narrowed to its owner if it was wider."""
    private_dir(path.parent)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    except FileExistsError:
        pass
    mode = path.stat().st_mode & 0o777
    if mode & 0o077 and path.stat().st_uid == os.getuid():
        os.chmod(path, mode & ~0o077)
    return path


def too_open(path: Path) -> bool:
    """Others than the owner can read, write or enter ``path``."""
    return path.exists() and bool(path.stat().st_mode & 0o077)
