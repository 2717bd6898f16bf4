#!/usr/bin/env python3
"""Power budget, parts and wiring counts of every layout, written into the hardware docs.

    python3 hardware/make_power.py           rewrite the generated blocks of power.md, bom.md, wiring.md
    python3 hardware/make_power.py --check   exit 1 when a block is stale or a layout breaks a rule

Reads hardware/layouts/*.json (LED chains, readers, buttons, touch, power_ma, chain_ma) and
writes the tables between the marker comments. The rules it checks: the 5 V supply and each
3.3 V regulator keep 20 % headroom over their worst case, and no LED chain carries more than
80 % of its fuse. Standard library only, so a maker can run it without installing botboard.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
LAYOUT_DIR = HERE / "layouts"

# --- part figures (datasheet facts, and where an allowance is ours) ---------------------------
# WS2812B: the firmware's estimate, which it holds under power_ma and chain_ma
# (firmware/bbfw/render.py CHANNEL_MA, IDLE_MA); a test keeps these equal to the firmware's.
LED_CHANNEL_MA = 20  # per colour channel at 255: rounded up from the datasheet's 12 mA
LED_IDLE_MA = 1  # a dark LED's own driver
# Worldsemi WS2812B-V5 datasheet, LED characteristics: each of R, G, B is driven at 12 mA
LED_DATASHEET_CHANNEL_MA = 12
LEDS_PER_INJECTION = 100  # 5 V fed in again every 100 LEDs (power.md: thin copper browns out)

# NXP MFRC522 datasheet (Rev. 3.9), Table 1 quick reference data, maxima: digital supply
# IDDD 6.5 mA, analog IDDA 10 mA, transmitter IDD(TVDD) 100 mA (60 mA typical) with the
# field on.  Every reader draws the first two; the transmitter only while its field is on.
READER_IDLE_MA = 6.5 + 10
READER_TX_MA = 100
READER_MA = READER_IDLE_MA + READER_TX_MA  # a reader with its field on

# 5 V supplies: Mean Well LRS series, 5 V outputs (each model's datasheet: rated current)
SUPPLIES = (("Mean Well LRS-35-5", 7000), ("Mean Well LRS-50-5", 10000),
            ("Mean Well LRS-75-5", 14000), ("Mean Well LRS-100-5", 18000))
# readers' 3.3 V: Pololu D24V22F3 step-down module, 2.5 A typical maximum (its product page),
# one or more per station, so 3.3 V never runs down long station cables
REGULATOR = ("Pololu D24V22F3 (3.3 V 2.5 A step-down)", 2500)
BUCK_EFFICIENCY = 0.80  # assumed, on the low side for a buck at 5 V -> 3.3 V: check your module
FUSE_MA = 5000  # one blade fuse per LED chain
HEADROOM = 0.20  # every supply, regulator and fuse carries at most 80 % of its rating

# Pico and logic: allowances (ours), generous next to the datasheets' figures
PICO_MA = 100  # the Pico itself from VSYS (it runs on tens of mA)
LOGIC_IC_MA = 2  # 74HC595 / 74xx125: micro-amps static (TI datasheets, ICC) + pull-ups, edges
TOUCH_MA = 1  # TTP223 module: micro-amps idle (Tontek datasheet), its LED while touched
PICO_3V3_MA = 300  # Pico datasheet: keep the 3V3(OUT) load under 300 mA
MATRIX_ROWS_PER_CHIP = 8  # one 74HC595 drives 8 rows
READERS_PER_SELECT_CHIP = 8  # one 74HC595 selects 8 readers
GATES_PER_125 = 4  # 74AHCT125 / 74LVC125A: four buffers a package


@dataclass(frozen=True)
class Chain:
    pin: int
    cells: int
    leds: int
    sense: bool
    full_ma: int  # the firmware's estimate at full white
    limit_ma: int  # the most it may carry: full white, cut by chain_ma and power_ma

    @property
    def injections(self) -> list[int]:
        # LED index (0 = first) where 5 V and GND go in
        return list(range(0, self.leds, LEDS_PER_INJECTION))


@dataclass(frozen=True)
class Station:
    name: str
    readers: int
    regulators: int
    fields_on: int  # of its readers, the most with their field on at once

    @property
    def load_ma(self) -> float:
        # the busiest regulator of the station (readers shared out evenly, the fields on in its share)
        if not self.regulators:
            return 0.0
        share = math.ceil(self.readers / self.regulators)
        return share * READER_IDLE_MA + min(share, self.fields_on) * READER_TX_MA


@dataclass(frozen=True)
class Board:
    """One layout's figures, all currents in mA."""

    id: str
    cells: int
    leds: int
    chains: tuple[Chain, ...]
    stations: tuple[Station, ...]
    buttons: int
    touch: bool
    cols: int
    power_ma: int
    chain_ma: int
    fields_on: int  # reader fields on at once (field_count)

    @property
    def readers(self) -> int:
        return sum(s.readers for s in self.stations)

    @property
    def keys(self) -> int:
        return self.buttons + (self.cells if self.touch else 0)

    @property
    def dark_ma(self) -> int:
        return self.leds * LED_IDLE_MA

    @property
    def full_ma(self) -> int:
        return sum(c.full_ma for c in self.chains)

    @property
    def datasheet_full_ma(self) -> int:
        return self.leds * (LED_IDLE_MA + 3 * LED_DATASHEET_CHANNEL_MA)

    @property
    def led_ma(self) -> int:
        # what the firmware lets the LEDs draw, at worst: its budget or every chain at its limit
        return min(self.power_ma, sum(c.limit_ma for c in self.chains))

    @property
    def readers_3v3_ma(self) -> float:
        return self.readers * READER_IDLE_MA + self.fields_on * READER_TX_MA

    @property
    def readers_5v_ma(self) -> float:
        return self.readers_3v3_ma * 3.3 / (5.0 * BUCK_EFFICIENCY)

    @property
    def regulators(self) -> int:
        return sum(s.regulators for s in self.stations)

    # logic chips
    @property
    def select_595s(self) -> int:
        return math.ceil(self.readers / READERS_PER_SELECT_CHIP)

    @property
    def row_595s(self) -> int:
        rows = math.ceil(self.keys / self.cols)
        return max(1, math.ceil(rows / MATRIX_ROWS_PER_CHIP))

    @property
    def miso_125s(self) -> int:
        return math.ceil(self.readers / GATES_PER_125)

    @property
    def shifters(self) -> int:
        return math.ceil(len(self.chains) / GATES_PER_125)

    @property
    def logic_ics(self) -> int:
        return self.select_595s + self.row_595s + self.miso_125s + self.shifters

    @property
    def pico_3v3_ma(self) -> int:
        # 595s, MISO buffers and touch modules hang on the Pico's 3V3(OUT)
        touch = self.cells if self.touch else 0
        return (self.select_595s + self.row_595s + self.miso_125s) * LOGIC_IC_MA + touch * TOUCH_MA

    @property
    def logic_ma(self) -> int:
        # counted at 5 V one for one: the Pico's own converter only lowers it
        return PICO_MA + self.pico_3v3_ma + self.shifters * LOGIC_IC_MA

    @property
    def total_ma(self) -> float:
        return self.led_ma + self.readers_5v_ma + self.logic_ma

    @property
    def supply(self) -> tuple[str, int] | None:
        return next((s for s in SUPPLIES if fits(self.total_ma, s[1])), None)

    @property
    def injections(self) -> int:
        return sum(len(c.injections) for c in self.chains)


def fits(load: float, rating: int) -> bool:
    return load <= rating * (1 - HEADROOM)


def headroom(load: float, rating: int) -> float:
    return (rating - load) / rating


def board(doc: dict) -> Board:
    """A layout file's figures (format: docs/layouts.md)."""
    lpc = doc["leds_per_cell"]
    power_ma = doc["power_ma"]
    chain_ma = doc.get("chain_ma", 4000)  # firmware/bbfw/config.py DEFAULT_CHAIN_MA
    chains = []
    for c in doc["chains"]:
        leds = c["cells"] * lpc
        full = leds * (LED_IDLE_MA + 3 * LED_CHANNEL_MA)
        chains.append(Chain(c["pin"], c["cells"], leds, "sense" in c, full, min(full, chain_ma, power_ma)))
    per_regulator = int(REGULATOR[1] * (1 - HEADROOM) // READER_MA)
    on = field_count(doc)
    stations = tuple(Station(s["name"], len(s["slots"]), math.ceil(len(s["slots"]) / per_regulator),
                             min(len(s["slots"]), on))
                     for s in doc["stations"])
    return Board(id=doc["id"], cells=len(doc["cells"]), leds=len(doc["cells"]) * lpc,
                 chains=tuple(chains), stations=stations,
                 buttons=sum(len(s["buttons"]) for s in doc["stations"]),
                 touch=bool(doc.get("touch", False)), cols=len(doc.get("pins", {}).get("cols", [0] * 8)),
                 power_ma=power_ma, chain_ma=chain_ma, fields_on=on)


def field_count(doc: dict) -> int:
    """The most reader fields on at once. A layout with slot places (slot_mm) has a field
    schedule: a turn switches on only the slots it polls, at most the scan budget, which is
    the active station's slots + 1 (firmware/bbfw/scanner.py, app.py _set_priority). Without
    slot places every field stays on."""
    slots = [len(s["slots"]) for s in doc["stations"]]
    if not all("slot_mm" in s for s in doc["stations"]):
        return sum(slots)
    return min(sum(slots), max(slots) + 1)


def boards(layout_dir: Path = LAYOUT_DIR) -> list[Board]:
    return [board(json.loads(p.read_text())) for p in sorted(layout_dir.glob("*.json"))]


def problems(b: Board) -> list[str]:
    """The rules a layout's hardware breaks, in words that say what to change."""
    found = []
    if b.supply is None:
        found.append(f"{b.id}: {amps(b.total_ma)} leaves no 5 V supply in SUPPLIES 20 % headroom: "
                     "lower power_ma in its layout file or add a larger supply")
    for i, c in enumerate(b.chains):
        if not fits(c.limit_ma, FUSE_MA):
            found.append(f"{b.id}: chain {i} may carry {amps(c.limit_ma)}, over 80 % of its "
                         f"{amps(FUSE_MA)} fuse: lower chain_ma")
    for s in b.stations:
        if not fits(s.load_ma, REGULATOR[1]):
            found.append(f"{b.id}: a regulator of station {s.name} carries {amps(s.load_ma)}")
    if not fits(b.pico_3v3_ma, PICO_3V3_MA):
        found.append(f"{b.id}: {b.pico_3v3_ma} mA on the Pico's 3V3(OUT): give the logic its own 3.3 V")
    return found


# --- the generated Markdown -------------------------------------------------------------------

def amps(ma: float) -> str:
    return f"{ma / 1000:.2f} A"


def percent(x: float) -> str:
    return f"{x * 100:.0f} %"


def table(head: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def power_block(bs: list[Board]) -> str:
    leds = table(
        ["layout", "cells", "LEDs", "chains (LEDs)", "dark", "full white, datasheet",
         "full white, firmware estimate"],
        [[f"`{b.id}`", b.cells, b.leds, " + ".join(str(c.leds) for c in b.chains), amps(b.dark_ma),
          amps(b.datasheet_full_ma), amps(b.full_ma)] for b in bs])
    supply = table(
        ["layout", "LED budget (`power_ma`)", "LEDs at most", "readers, 3.3 V", "readers, from 5 V",
         "Pico + logic", "total, 5 V", "supply", "headroom"],
        [[f"`{b.id}`", f"{b.power_ma:,} mA", amps(b.led_ma),
          f"{b.readers} x {READER_IDLE_MA:g} mA + {b.fields_on} fields x {READER_TX_MA} mA = "
          f"{amps(b.readers_3v3_ma)}", amps(b.readers_5v_ma),
          amps(b.logic_ma), amps(b.total_ma), supply_name(b),
          percent(headroom(b.total_ma, b.supply[1])) if b.supply else "-"] for b in bs])
    chains = table(
        ["layout", "chain", "GPIO", "LEDs", "full white (estimate)", "at most (`chain_ma`, `power_ma`)",
         "of its 5 A fuse", "5 V injection points"],
        [[f"`{b.id}`", i, f"GP{c.pin}", c.leds, amps(c.full_ma), amps(c.limit_ma),
          percent(c.limit_ma / FUSE_MA), len(c.injections)]
         for b in bs for i, c in enumerate(b.chains)])
    rails = table(
        ["layout", "readers", "3.3 V regulators", "busiest regulator", "of its 2.5 A"],
        [[f"`{b.id}`", b.readers, f"{b.regulators} ({regulators_by_station(b)})",
          amps(max(s.load_ma for s in b.stations)),
          percent(max(s.load_ma for s in b.stations) / REGULATOR[1])] for b in bs])
    return "\n\n".join([
        "LEDs, with no limit:", leds,
        "Supply: LEDs at the most the firmware lets them draw, readers with as many fields on as "
        "the field schedule allows at once (the active station's slots + 1; wiring.md), "
        f"readers' 3.3 V made from 5 V at {percent(BUCK_EFFICIENCY)} efficiency; the supply is the "
        "smallest that keeps 20 % headroom.", supply,
        "Each LED chain: its own fuse and injection points (wiring.md).", chains,
        "Readers' 3.3 V: one step-down module per station (two where a station has more than "
        f"{int(REGULATOR[1] * (1 - HEADROOM) // READER_MA)} readers), at most 80 % loaded.", rails])


def supply_name(b: Board) -> str:
    return f"{b.supply[0]} (5 V {b.supply[1] // 1000} A)" if b.supply else "none fits"


def regulators_by_station(b: Board) -> str:
    counts = {s.regulators for s in b.stations}
    if len(counts) == 1:
        return f"{counts.pop()} per station"
    return ", ".join(f"{s.regulators} {s.name}" for s in b.stations)


BOM_ROWS = (
    # part, part number, notes, quantity of a board
    ("MCU board", "Raspberry Pi Pico 2 (RP2350) or Pico (RP2040)", "same pinout (pinout.md)", lambda b: 1),
    ("RGB LED", "Worldsemi WS2812B-V5 (5050)", "WS2812B-2020 for small cells", lambda b: b.leds),
    ("capacitor 100 nF X7R", "0603 or 0805", "one at each LED's VDD (WS2812B datasheet application "
     "circuit); none if your LED boards carry them", lambda b: b.leds),
    ("level shifter", "TI SN74AHCT125N", "3.3 V data to 5 V, 4 chains a chip; /OE to GND (wiring.md)",
     lambda b: b.shifters),
    ("resistor 10 k", "any", "pull-down on each level-shifter input: data low while the Pico boots",
     lambda b: len(b.chains)),
    ("resistor 330 ohm", "any 0.25 W", "series on each LED data line", lambda b: len(b.chains)),
    ("resistors 10 k + 20 k", "any", "sense divider, one pair per sensed chain",
     lambda b: sum(c.sense for c in b.chains)),
    ("NFC reader", "NXP MFRC522 (MFRC52202HN1) on an RC522 module", "one per slot; carries its own "
     "decoupling", lambda b: b.readers),
    ("MISO buffer", "TI SN74LVC125AN", "one gate per reader, 4 a package", lambda b: b.miso_125s),
    ("shift register", "TI SN74HC595N", "reader chip selects, 8 a chip", lambda b: b.select_595s),
    ("shift register", "TI SN74HC595N", "button-matrix rows, 8 a chip", lambda b: b.row_595s),
    ("capacitor 100 nF X7R", "any", "one at each logic chip's VCC pin (TI datasheets, power supply "
     "recommendations)", lambda b: b.logic_ics),
    ("resistor 10 k", "any", "pull-ups: each reader's NSS and the chip-select /OE (GP20)",
     lambda b: b.readers + 1),
    ("resistor 10 k", "any", "matrix column pull-ups", lambda b: b.cols),
    ("push button", "12 mm tactile, e.g. C&K PTS125", "confirm, cancel, previous, next per station",
     lambda b: b.buttons),
    ("touch pad module", "TTP223-BA6 module", "touch a cell to pick it", lambda b: b.cells * b.touch),
    ("MOSFET", "2N7002 (SOT-23)", "joins a touch pad's row and column", lambda b: b.cells * b.touch),
    ("diode", "1N4148 (1N4148W SMD)", "one per matrix key", lambda b: b.keys),
    ("push button", "any momentary", "safe mode (GP28 to GND)", lambda b: 1),
    ("5 V supply", "Mean Well LRS series, 5 V", "the smallest with 20 % headroom (power.md)", supply_name),
    ("3.3 V regulator", REGULATOR[0], "readers' 3.3 V, at the stations (power.md)", lambda b: b.regulators),
    ("Schottky diode", "1N5819", "VSYS from the 5 V supply", lambda b: 1),
    ("capacitor 1000 uF 10 V", "electrolytic", "at each LED power injection point", lambda b: b.injections),
    ("fuse 5 A", "blade fuse + holder", "one per LED chain", lambda b: len(b.chains)),
)


def bom_block(bs: list[Board]) -> str:
    rows = [[part, number, notes] + [qty(b) for b in bs] for part, number, notes, qty in BOM_ROWS]
    return table(["part", "part number", "notes"] + [f"`{b.id}`" for b in bs], rows)


def wiring_block(bs: list[Board]) -> str:
    chains = table(
        ["layout", "chain", "GPIO", "cells", "LEDs", "5 V in at LED", "fuse", "1000 uF"],
        [[f"`{b.id}`", i, f"GP{c.pin}", c.cells, c.leds, ", ".join(map(str, c.injections)), "5 A",
          len(c.injections)] for b in bs for i, c in enumerate(b.chains)])
    rails = table(["layout", "stations", "3.3 V regulators"],
                  [[f"`{b.id}`", station_groups(b), b.regulators] for b in bs])
    return "\n\n".join([chains, "Readers' 3.3 V: step-down modules at the stations (power.md).", rails])


def station_groups(b: Board) -> str:
    # "6 x 6 readers, 1 regulator each", grouping stations alike
    groups: dict[tuple[int, int], int] = {}
    for s in b.stations:
        groups[s.readers, s.regulators] = groups.get((s.readers, s.regulators), 0) + 1
    return "; ".join(f"{n} x {readers} readers, {regs} regulator{'s' * (regs > 1)} each"
                     for (readers, regs), n in groups.items())


BLOCKS = {"power.md": power_block, "bom.md": bom_block, "wiring.md": wiring_block}


def markers(doc: str) -> tuple[str, str]:
    return (f"<!-- BEGIN generated by hardware/make_power.py from layouts/*.json: edit those and "
            f"run it again; do not edit by hand ({doc}) -->", f"<!-- END generated ({doc}) -->")


def with_block(text: str, doc: str, body: str) -> str:
    begin, end = markers(doc)
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise ValueError(f"hardware/{doc}: no generated block (the marker comments {begin!r} ... {end!r})")
    return text[:start + len(begin)] + "\n\n" + body + "\n\n" + text[stop:]


def generated(root: Path = HERE) -> dict[str, str]:
    """Each doc's text with its block brought up to date (root: the hardware directory)."""
    bs = boards(root / "layouts")
    return {doc: with_block((root / doc).read_text(), doc, make(bs)) for doc, make in BLOCKS.items()}


def main(argv: list[str], root: Path = HERE) -> int:
    check = "--check" in argv
    try:
        docs = generated(root)
    except ValueError as err:
        print(err, file=sys.stderr)
        return 1
    stale = [doc for doc, text in docs.items() if (root / doc).read_text() != text]
    if not check:
        for doc in stale:
            (root / doc).write_text(docs[doc])
    found = [p for b in boards(root / "layouts") for p in problems(b)]
    for p in found:
        print("rule broken:", p, file=sys.stderr)
    if check and stale:
        print("stale: " + ", ".join(stale) + ": run python3 hardware/make_power.py", file=sys.stderr)
    elif stale:
        print("rewrote " + ", ".join(stale))
    return 1 if found or (check and stale) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
