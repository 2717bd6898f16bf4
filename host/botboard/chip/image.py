"""The rp2 image the emulated Pico runs, and the RP2040's boot ROM: found, then checked.

Neither file is in this repository (docs/firmware.md, "The emulated RP2040"): both are
looked for in ``$BOTBOARD_RP2_DIR``, else ``~/.cache/botboard/rp2`` (under
``$XDG_CACHE_HOME`` when set), and each must match the sha256 recorded in image.json:
the figures in docs/benchmarks.md were measured on exactly that image.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

RECORD_PATH = Path(__file__).with_name("image.json")


class ImageError(RuntimeError):
    """The image or the boot ROM is missing or is not the recorded one; the message says what to do."""


@dataclass(frozen=True)
class Rp2Image:
    firmware: Path
    bootrom: Path
    banner: str


def record() -> dict:
    return json.loads(RECORD_PATH.read_text())


def directory() -> Path:
    if os.environ.get("BOTBOARD_RP2_DIR"):
        return Path(os.environ["BOTBOARD_RP2_DIR"])
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "botboard" / "rp2"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def locate(check: bool = True) -> Rp2Image:
    """The recorded image and boot ROM, or ImageError naming what is missing or different."""
    rec = record()
    where = directory()
    found = {}
    for part in ("firmware", "bootrom"):
        entry = rec[part]
        path = where / entry["file"]
        if not path.is_file():
            raise ImageError(
                f"the emulated Pico needs {entry['file']} ({entry['what']}) in {where}: "
                "it is not in the repository; see docs/firmware.md, \"The emulated RP2040\", "
                "for where it comes from (or set BOTBOARD_RP2_DIR)")
        if check and sha256(path) != entry["sha256"]:
            raise ImageError(
                f"{path} is not the recorded {entry['file']} (sha256 {sha256(path)}, recorded "
                f"{entry['sha256']} in {RECORD_PATH.name}): figures from it would not compare "
                "with docs/benchmarks.md; put the recorded file there")
        found[part] = path
    return Rp2Image(found["firmware"], found["bootrom"], rec["firmware"]["banner"])


def available() -> bool:
    """True when the recorded image and boot ROM are both in place (tests skip without them)."""
    try:
        locate()
    except ImageError:
        return False
    return True
