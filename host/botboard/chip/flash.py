"""The Pico's flash filesystem as ``botboard deploy`` leaves it, written as a littlefs image.

MicroPython's rp2 port mounts littlefs v2 over the end of the flash (``_boot.py``:
``VfsLfs2(rp2.Flash(), progsize=256)``); on a Pico with 2 MB of flash that is the last
1408 KB (ports/rp2/mpconfigport.h: MICROPY_HW_FLASH_STORAGE_BYTES), in 4 KB erase
blocks (W25Q16JV datasheet: 4 KB sectors). The image holds what deploy copies: the
compiled firmware tree, ``main.py`` and ``board.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import littlefs

from ..board.firmware_build import Build

FLASH_BYTES = 2 * 1024 * 1024  # the Pico's W25Q16JV: 16 Mbit
FS_BYTES = 1408 * 1024
FS_OFFSET = FLASH_BYTES - FS_BYTES
BLOCK_BYTES = 4096
PROG_BYTES = 256  # a flash page: the port's progsize
LFS_DISK_VERSION = 0x00020001  # the on-disk format of MicroPython 1.28's littlefs (lfs2.h)


def image(build: Build, config: dict[str, Any]) -> bytes:
    """The filesystem with the compiled firmware, main.py and board.json in it."""
    fs = littlefs.LittleFS(block_size=BLOCK_BYTES, block_count=FS_BYTES // BLOCK_BYTES,
                           prog_size=PROG_BYTES, read_size=32, disk_version=LFS_DISK_VERSION)
    for rel in build.modules:
        _write(fs, rel, (build.directory / rel).read_bytes())
    _write(fs, "main.py", build.main.read_bytes())
    _write(fs, "board.json", json.dumps(config).encode())
    return bytes(fs.context.buffer)


def _write(fs: littlefs.LittleFS, rel: str, data: bytes) -> None:
    parent = str(Path(rel).parent)
    if parent != ".":
        fs.makedirs(parent, exist_ok=True)
    with fs.open(rel, "wb") as f:
        f.write(data)
