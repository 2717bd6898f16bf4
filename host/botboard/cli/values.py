"""Argument types that refuse, while the command line is read, a number the command cannot
use (a negative count, a port past 65535, NaN seconds): argparse names the flag and the
range, before anything starts."""

from __future__ import annotations

import argparse
import math
from typing import Callable


def whole(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high``."""
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"give a whole number from {low} to {high}, not {text[:40]!r}")
        return value
    parse.__name__ = "whole number"
    return parse


def number(low: float, high: float) -> Callable[[str], float]:
    """A finite number from ``low`` to ``high``."""
    def parse(text: str) -> float:
        try:
            value = float(text.strip()) if len(text) < 100 else math.nan
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # NaN fails both
            raise argparse.ArgumentTypeError(f"give a number from {low:g} to {high:g}, not {text[:40]!r}")
        return value
    parse.__name__ = "number"
    return parse


TCP_PORT = whole(0, 65535)
COUNT = whole(1, 10**9)  # how many of something, at least one
SEED = whole(-2**63, 2**63 - 1)
SECONDS = number(0, 86_400)
RATE = number(0, 1)  # a share of bytes or chunks
BAUD = whole(300, 10_000_000)
