# The board config (board.json): a compact form of a layout in hardware/,
# written by the host (botboard deploy, botboard sim). Checked at boot so a
# config from another layout is refused with words instead of lighting the
# wrong LEDs.
import json

_REQUIRED = ("layout", "cells", "leds_per_cell", "slots", "buttons", "chains")


class ConfigError(Exception):
    pass


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError:
        raise ConfigError("no board config at %s: deploy one with botboard deploy" % path)
    except ValueError:
        raise ConfigError("board config %s is not valid JSON" % path)
    return check(doc)


def check(doc):
    for key in _REQUIRED:
        if key not in doc:
            raise ConfigError("board config lacks %r" % key)
    led_cells = 0
    for chain in doc["chains"]:
        led_cells += chain[2]
    if led_cells != doc["cells"]:
        raise ConfigError("chains drive %d cells but the layout has %d" % (led_cells, doc["cells"]))
    return doc
