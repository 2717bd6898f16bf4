"""What a board's answers during bringup say about its wiring: faults in words, and fixes.

Pure: no board, no clock. ``flow`` collects the answers; each function here takes the layout
being brought up (the reference wiring: what the board should be) and what was seen, and gives
``Finding``s (a fault named in words with what to do) plus the part of a corrected layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..board.layouts import Layout

Coord = tuple[int, int]

# WS2812B datasheet: VDD 3.5..5.3 V. We keep the LED rail at full white within 10 % of 5 V:
# below that the chain's far cells dim and shift colour, and a 3.3 V data line loses its margin.
MIN_RAIL_MV = 4500
NO_RAIL_MV = 1000  # the ADC sees (nearly) nothing: no divider fitted, or the wrong pin
BUDGET_STEP_MA = 100  # a recommended LED budget is rounded down to this


@dataclass(frozen=True)
class Finding:
    step: str  # leds, readers, buttons, supply
    fault: str  # a short name: reversed-chain, swapped-readers, dead-reader, ...
    words: str  # what is wrong and what to do

    def to_json(self) -> dict[str, str]:
        return {"step": self.step, "fault": self.fault, "words": self.words}


def slot_name(layout: Layout, station: int, position: int) -> str:
    """A slot as the console labels it: the board's slot number (from 0) and its station."""
    return f"slot {layout.stations[station].slots[position]} of station {layout.stations[station].name}"


# -- LED chains ------------------------------------------------------------------------------
def chain_probe(layout: Layout, chain: int) -> list[int]:
    """The chain positions to light first: its first two cells and its last."""
    c = layout.chains[chain]
    first, last = c["first_cell"], c["first_cell"] + c["cells"] - 1
    return sorted({first, min(first + 1, last), last})


def chain_pattern(layout: Layout, chain: int, seen: dict[int, Coord | None]) -> tuple[str, int]:
    """("ok" | "reversed" | "shifted" | "mixed", shift) from what lit at the positions asked."""
    c = layout.chains[chain]
    first, count = c["first_cell"], c["cells"]
    cells = layout.cells

    def fits(where: Any) -> bool:
        for pos, coord in seen.items():
            at = where(pos)
            expect = cells[at] if first <= at < first + count else None
            if coord != expect:
                return False
        return True

    if fits(lambda p: p):
        return "ok", 0
    if fits(lambda p: 2 * first + count - 1 - p):
        return "reversed", 0
    for shift in range(1, count):
        for k in (shift, -shift):
            if fits(lambda p, k=k: p + k):
                return "shifted", k
    return "mixed", 0


def chain_cells(layout: Layout, chain: int,
                seen: dict[int, Coord | None]) -> tuple[list[Coord], list[Finding]]:
    """The chain's coordinates in chain order for the corrected layout, and the findings, from
    what lit at the positions asked (the probe's, or every position of a mixed chain)."""
    pattern, k = chain_pattern(layout, chain, seen)
    c = layout.chains[chain]
    first, count = c["first_cell"], c["cells"]
    ref = list(layout.cells[first:first + count])
    name = f"LED chain {chain} (GP{c['pin']})"
    if pattern == "ok":
        return ref, []
    if pattern == "reversed":
        return ref[::-1], [Finding("leds", "reversed-chain", (
            f"{name} is wired from its far end: its first LED is at the cell the layout puts last. "
            "The corrected layout lists its cells the other way round; or move its data wire to "
            "the other end of the chain."))]
    if pattern == "shifted":
        return ref, [Finding("leds", "shifted-chain", (
            f"{name} is shifted by {abs(k)} cell(s): each cell lights {abs(k)} place(s) "
            f"{'further along' if k > 0 else 'earlier'} than the layout says. A cell's LEDs are "
            "missing from the chain or extra LEDs sit before it: count the LEDs between the Pico "
            "and the first cell that lights right, and fix that cell's wiring (the layout cannot)."))]
    mapped = [seen.get(first + i) for i in range(count)]
    if sorted(x for x in mapped if x is not None) != sorted(ref) or None in mapped:
        return ref, [Finding("leds", "unmapped-chain", (
            f"{name}: the cells that lit do not cover the chain once each (some lit nowhere, or "
            "twice). Check the chain's data wire cell by cell with `botboard leds test`; the "
            "layout keeps this chain as it was."))]
    return [x for x in mapped if x is not None], [Finding("leds", "mixed-chain", (
        f"{name} runs through its cells in another order than the layout says; the corrected "
        "layout follows the wiring, cell by cell."))]


# -- readers -----------------------------------------------------------------------------------
def readers(layout: Layout, heard: dict[tuple[int, int], set[int]],
            boot_errors: dict[int, str]) -> tuple[list[list[int]], list[Finding]]:
    """Per station, the reader under each slot (corrected), and the findings.

    ``heard[(station, position)]``: the readers that heard the tile laid there (empty: none).
    A reader heard at two slots is the one under the slot where it alone heard it; at the other
    slot it cross-reads. ``boot_errors``: the board's words about readers that do not answer.
    """
    owner: dict[tuple[int, int], int] = {}
    pending = {k: set(v) for k, v in heard.items() if v}
    while True:  # a slot heard by one reader only owns it; that reader is then taken elsewhere
        sure = {k: next(iter(v)) for k, v in pending.items() if len(v) == 1}
        if not sure:
            break
        for key, reader in sure.items():
            owner[key] = reader
            del pending[key]
            for rest in pending.values():
                rest.discard(reader)
    for key, rest in pending.items():  # still ambiguous: the reader the layout expected, if heard
        expected = layout.stations[key[0]].slots[key[1]]
        owner[key] = expected if expected in rest else min(rest)
    findings = _cross(layout, heard, owner) + _swapped(layout, owner)
    table = _complete(layout, owner)
    for s, station in enumerate(layout.stations):
        for i in range(len(station.slots)):
            if not heard.get((s, i)):
                findings.append(_dead(layout, s, i, table[s][i], boot_errors))
    return table, findings


def _cross(layout: Layout, heard: dict[tuple[int, int], set[int]],
           owner: dict[tuple[int, int], int]) -> list[Finding]:
    where = {reader: key for key, reader in owner.items()}
    out = []
    for key, readers_heard in sorted(heard.items()):
        for reader in sorted(readers_heard - {owner.get(key)}):
            home = where.get(reader)
            under = f" (under {slot_name(layout, *home)})" if home else ""
            out.append(Finding("readers", "cross-reading", (
                f"reader {reader}{under} also hears a tile laid on {slot_name(layout, *key)}: one "
                "tile would count as two. Check that the layout's slot_mm places are where the "
                "readers really are, then move the readers further apart (50 mm centre to centre "
                "as in the reference layouts; closer than 34 mm no schedule helps) or put a "
                "ground-plane shield between them (hardware/wiring.md); then run bringup again.")))
    return out


def _swapped(layout: Layout, owner: dict[tuple[int, int], int]) -> list[Finding]:
    expected = {(s, i): r for s, st in enumerate(layout.stations) for i, r in enumerate(st.slots)}
    wrong = {k: r for k, r in owner.items() if expected[k] != r}
    out: list[Finding] = []
    done: set[tuple[int, int]] = set()
    for key, reader in sorted(wrong.items()):
        if key in done:
            continue
        other = next((k for k, r in wrong.items() if r == expected[key] and expected[k] == reader), None)
        if other is not None:
            done.update((key, other))
            out.append(Finding("readers", "swapped-readers", (
                f"the readers of {slot_name(layout, *key)} and {slot_name(layout, *other)} are "
                f"swapped (chip selects {expected[key]} and {reader} on each other's cable). The "
                "corrected layout follows the wiring; or swap the two cables back.")))
        else:
            out.append(Finding("readers", "moved-reader", (
                f"{slot_name(layout, *key)} is read by reader {reader}, not {expected[key]}: its "
                "cable is on another chip select. The corrected layout follows the wiring.")))
    return out


def _dead(layout: Layout, station: int, position: int, reader: int,
          boot_errors: dict[int, str]) -> Finding:
    said = f" The board said at boot: {boot_errors[reader]}." if reader in boot_errors else ""
    return Finding("readers", "dead-reader", (
        f"no reader heard the tile on {slot_name(layout, station, position)} (reader {reader} is "
        f"expected there).{said} Check that module's 3.3 V, ground, SPI and chip-select wires "
        "(hardware/wiring.md), or replace it; the tile must lie flat over the antenna."))


def _complete(layout: Layout, owner: dict[tuple[int, int], int]) -> list[list[int]]:
    """Every slot's reader: the found ones, then the readers left over for the slots left over
    (each slot keeps its own reader if that one is free), so every reader is used once."""
    taken = set(owner.values())
    free = [r for st in layout.stations for r in st.slots if r not in taken]
    table = []
    for s, station in enumerate(layout.stations):
        row = []
        for i, ref in enumerate(station.slots):
            if (s, i) in owner:
                row.append(owner[(s, i)])
            else:
                pick = ref if ref in free else free[0]
                free.remove(pick)
                row.append(pick)
        table.append(row)
    return table


# -- buttons -----------------------------------------------------------------------------------
def buttons(layout: Layout, pressed: dict[tuple[int, str], int | None]) -> tuple[list[dict[str, int]], list[Finding]]:
    """Per station, role -> button as wired, and the findings; ``pressed[(station, role)]`` is
    the key the board reported (None: none pressed)."""
    findings: list[Finding] = []
    owner: dict[tuple[int, str], int] = {}
    seen: dict[int, tuple[int, str]] = {}
    for key, button in pressed.items():
        at, role = key
        name = f"the {role} button of station {layout.stations[at].name}"
        if button is None:
            findings.append(Finding("buttons", "dead-button", (
                f"{name} gave no press: check its switch, its diode's direction and its row and "
                "column wires (hardware/wiring.md).")))
        elif button in seen:
            first = seen[button]
            findings.append(Finding("buttons", "shared-button", (
                f"{name} reports key {button}, as the {first[1]} button of station "
                f"{layout.stations[first[0]].name} does: two switches on one matrix crossing. "
                "Rewire one of them; the layout keeps it as it was.")))
        else:
            seen[button] = key
            owner[key] = button
            if layout.stations[at].buttons[role] != button:
                findings.append(Finding("buttons", "moved-button", (
                    f"{name} is wired as key {button}, not {layout.stations[at].buttons[role]}: "
                    "the corrected layout follows the wiring.")))
    free = [b for st in layout.stations for b in st.buttons.values() if b not in seen]
    table = []
    for s, station in enumerate(layout.stations):
        row = {}
        for role, ref in station.buttons.items():
            if (s, role) in owner:
                row[role] = owner[(s, role)]
            else:
                row[role] = ref if ref in free else free[0]
                free.remove(row[role])
        table.append(row)
    return table, findings


# -- supply ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reading:
    rail_mv: int
    led_ma: int


def supply(layout: Layout, dark: Reading, lit: Reading) -> tuple[int, list[Finding], dict[str, Any]]:
    """(the LED budget the supply holds, findings, figures) from the rail read dark and at full
    white within the budget."""
    figures: dict[str, Any] = {"dark_mv": dark.rail_mv, "lit_mv": lit.rail_mv,
                               "dark_ma": dark.led_ma, "lit_ma": lit.led_ma}
    if dark.rail_mv < NO_RAIL_MV:
        return layout.power_ma, [Finding("supply", "no-rail-reading", (
            f"the ADC reads {dark.rail_mv} mV with the LEDs dark: no divider on the supply pin. "
            "Fit the divider from the LED rail (hardware/wiring.md) and give its pin and ratio in "
            "the layout's pins (supply_adc, supply_divider), or power the board from VSYS."))], figures
    delta_ma = lit.led_ma - dark.led_ma
    if delta_ma <= 0:
        return layout.power_ma, [Finding("supply", "no-load", (
            "the LEDs drew no more at full white than dark: is the LED budget 0, or are the chains "
            "unpowered? Check the 5 V injection wires (hardware/wiring.md)."))], figures
    ohms = max(0, dark.rail_mv - lit.rail_mv) / delta_ma  # mV / mA
    open_mv = dark.rail_mv + dark.led_ma * ohms
    figures["source_mohm"] = round(ohms * 1000)
    if lit.rail_mv >= MIN_RAIL_MV:
        return layout.power_ma, [], figures
    holds = int((open_mv - MIN_RAIL_MV) / ohms) if ohms else layout.power_ma
    budget = max(BUDGET_STEP_MA, holds // BUDGET_STEP_MA * BUDGET_STEP_MA)
    budget = min(budget, layout.power_ma)
    figures["holds_ma"] = budget
    return budget, [Finding("supply", "undersized-supply", (
        f"the LED rail falls from {dark.rail_mv / 1000:.2f} V to {lit.rail_mv / 1000:.2f} V at full "
        f"white ({lit.led_ma} mA): the supply or its wires are undersized (about "
        f"{ohms * 1000:.0f} mOhm from the supply to the board). Fit the supply hardware/power.md "
        f"names, with short thick wires; until then the corrected layout limits the LEDs to "
        f"{budget} mA (power_ma), which keeps the rail above {MIN_RAIL_MV / 1000:.1f} V."))], figures
