# The board config (board.json): a compact form of a layout in hardware/,
# written by the host (botboard deploy, botboard sim).  Checked at boot: a
# config that is missing, malformed or inconsistent is refused with words
# (load_or_refuse gives an empty board and the reason, which the firmware
# sends to the host as an ERROR) instead of lighting the wrong LEDs.
#
#   {"layout": "ttb-big", "game": 1, "cells": 91, "leds_per_cell": 7,
#    "slots": 36, "buttons": 24, "touch": true,
#    "chains": [[pin, first_cell, cells(, sense_pin)], ...],
#    "pins": {"sck": 18, "mosi": 19, "miso": 16, "cs_latch": 17, "cs_oe": 20,
#             "rst": 21, "row_latch": 22, "cols": [10, ...], "safe": 28},
#    "power_ma": 5000,         LED current budget (hardware/power.md), applied at
#                              boot and the most the host may set; 0 = no limit;
#                              absent = DEFAULT_POWER_MA
#    "chain_ma": 4000,         the most one LED chain may carry (its fuse, with
#                              headroom); absent = DEFAULT_CHAIN_MA
#    "stuck_ms": 30000}        optional: a key held this long is reported stuck
import json

_REQUIRED = ("layout", "cells", "leds_per_cell", "slots", "buttons", "chains")
MAX_SLOTS = 64  # 8 chips of 74HC595 chip selects
MAX_KEYS = 256
# A config without a budget (hand-written, or from before budgets were in the
# layouts) gets what a USB port can feed: dim, but never an overloaded supply.
DEFAULT_POWER_MA = 400
MAX_POWER_MA = 65535
# hardware/power.md fits every chain with a 5 A fuse; 80 % of it, as the docs'
# 20 % headroom rule asks (a fuse carried at its rating opens within hours)
DEFAULT_CHAIN_MA = 4000


class ConfigError(Exception):
    pass


def empty(layout="none"):
    # what a board with a refused config runs: no cells, no slots, no keys
    return {"layout": layout, "cells": 0, "leds_per_cell": 7, "slots": 0, "buttons": 0,
            "touch": False, "chains": [], "power_ma": DEFAULT_POWER_MA, "chain_ma": DEFAULT_CHAIN_MA}


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError:
        raise ConfigError("no board config at %s: deploy one with botboard deploy" % path)
    except (ValueError, RuntimeError, MemoryError):  # not JSON, or nested past the stack or heap
        raise ConfigError("board config %s is not valid JSON" % path)
    try:
        return check(doc)
    except (TypeError, KeyError, IndexError, AttributeError, ValueError, MemoryError):
        # a field of another kind than the host writes (edited by hand, damaged)
        raise ConfigError("board config %s is malformed: deploy it again with botboard deploy" % path)


def load_or_refuse(path):
    # (config, None) or (empty config, why it was refused)
    try:
        return load(path), None
    except ConfigError as err:
        return empty(), "board config refused: %s" % err


def _count(doc, key, top):
    v = doc[key]
    if not isinstance(v, int) or not 0 <= v <= top:
        # the value by its kind only: a long one would not fit the heap to be said
        raise ConfigError("%r must be a number 0..%d, not %s" % (key, top, v if isinstance(v, int) else type(v).__name__))
    return v


def check(doc):
    if not isinstance(doc, dict):
        raise ConfigError("board config must be a JSON object")
    for key in _REQUIRED:
        if key not in doc:
            raise ConfigError("board config lacks %r" % key)
    cells = _count(doc, "cells", 4096)
    _count(doc, "leds_per_cell", 7)
    slots = _count(doc, "slots", MAX_SLOTS)
    keys = _count(doc, "buttons", MAX_KEYS) + (cells if doc.get("touch") else 0)
    if keys > MAX_KEYS:
        raise ConfigError("%d buttons and touch pads: the matrix has at most %d keys" % (keys, MAX_KEYS))
    # the LED current budget applied at boot and what one chain may carry
    # (0: no limit), the defaults filled in: the Board reads them from the
    # config without this module, which leaves the heap with the HAL's boot
    for key, default in (("power_ma", DEFAULT_POWER_MA), ("chain_ma", DEFAULT_CHAIN_MA)):
        if key in doc:
            _count(doc, key, MAX_POWER_MA)
        else:
            doc[key] = default
    if slots and "pins" in doc and "cs_latch" not in doc["pins"]:
        raise ConfigError("slots need pins.cs_latch")
    nxt = 0
    for chain in doc["chains"]:
        if not isinstance(chain, list) or len(chain) < 3 or not all(isinstance(v, int) for v in chain):
            raise ConfigError("a chain is [pin, first_cell, cells], not a %s" % type(chain).__name__)
        if chain[1] != nxt or chain[2] <= 0:
            raise ConfigError("chains must cover the cells in order: chain at cell %r" % chain[1])
        nxt += chain[2]
    if nxt != cells:
        raise ConfigError("chains drive %d cells but the layout has %d" % (nxt, cells))
    return doc


def chain_leds(doc):
    # LEDs on each chain, as configured
    lpc = doc["leds_per_cell"]
    return [c[2] * lpc for c in doc["chains"]]
