"""bringup's findings: each wiring fault named from the maker's answers, and the corrected layout
that follows the wiring (pure: no board)."""

from __future__ import annotations

import re

import pytest

from botboard.board import layouts
from botboard.bringup import findings, layout_file
from botboard.bringup.findings import Reading

REF = layouts.load("ttb-small")


def _lit(chain: int, where) -> dict[int, tuple[int, int] | None]:  # type: ignore[no-untyped-def]
    """What the probe positions of a chain show when position p lights the cell at where(p)."""
    c = REF.chains[chain]
    first, count = c["first_cell"], c["cells"]
    out = {}
    for p in findings.chain_probe(REF, chain):
        at = where(p)
        out[p] = REF.cells[at] if first <= at < first + count else None
    return out


def test_a_chain_as_designed_reversed_or_shifted_is_told_from_three_cells() -> None:
    c = REF.chains[1]
    first, last = c["first_cell"], c["first_cell"] + c["cells"] - 1
    assert len(findings.chain_probe(REF, 1)) == 3
    assert findings.chain_pattern(REF, 1, _lit(1, lambda p: p)) == ("ok", 0)
    assert findings.chain_pattern(REF, 1, _lit(1, lambda p: first + last - p)) == ("reversed", 0)
    assert findings.chain_pattern(REF, 1, _lit(1, lambda p: p + 2)) == ("shifted", 2)
    cells, found = findings.chain_cells(REF, 1, _lit(1, lambda p: first + last - p))
    assert cells == list(REF.cells[first:last + 1])[::-1]
    assert [f.fault for f in found] == ["reversed-chain"] and "LED chain 1" in found[0].words


def test_a_chain_in_another_order_is_mapped_cell_by_cell() -> None:
    c = REF.chains[0]
    first, count = c["first_cell"], c["cells"]
    order = list(range(first, first + count))
    order[3], order[7] = order[7], order[3]  # two cells' data wires crossed
    seen = {first + i: REF.cells[order[i]] for i in range(count)}
    probe = {p: seen[p] for p in findings.chain_probe(REF, 0)}
    assert findings.chain_pattern(REF, 0, probe)[0] == "ok"  # the probe cannot see it ...
    assert findings.chain_pattern(REF, 0, seen)[0] == "mixed"  # ... asking every cell does
    cells, found = findings.chain_cells(REF, 0, seen)
    assert cells[3] == REF.cells[first + 7] and found[0].fault == "mixed-chain"


def test_swapped_dead_and_cross_reading_readers() -> None:
    heard = {(s, i): {r} for s, st in enumerate(REF.stations) for i, r in enumerate(st.slots)}
    heard[(0, 0)], heard[(0, 1)] = {1}, {0}  # swapped cables
    heard[(1, 1)] = set()  # reader 7 dead
    heard[(1, 4)] = {10, 9}  # reader 9 also hears slot 10
    table, found = findings.readers(REF, heard, {7: "slot 7: reader not answering"})
    assert table[0][:2] == [1, 0] and table[1] == list(REF.stations[1].slots)
    faults = {f.fault: f.words for f in found}
    assert set(faults) == {"swapped-readers", "dead-reader", "cross-reading"}
    assert "slot 0 of station north and slot 1 of station north" in faults["swapped-readers"]
    assert "reader 7" in faults["dead-reader"] and "reader not answering" in faults["dead-reader"]
    assert faults["cross-reading"].startswith("reader 9 (under slot 9 of station east) also hears a tile laid on slot 10 of")
    assert "50 mm" in faults["cross-reading"]
    doc = layout_file.corrected(REF, slots=table)  # a valid layout: every reader once
    assert layouts.from_json(doc).slot_owner(1) == (0, 0)


def test_buttons_follow_the_wiring_and_a_missing_press_is_named() -> None:
    pressed = {(s, role): b for s, st in enumerate(REF.stations) for role, b in st.buttons.items()}
    pressed[(0, "confirm")], pressed[(0, "cancel")] = 1, 0
    pressed[(2, "next")] = None
    table, found = findings.buttons(REF, pressed)
    assert table[0]["confirm"] == 1 and table[0]["cancel"] == 0 and table[2] == REF.stations[2].buttons
    assert sorted(f.fault for f in found) == ["dead-button", "moved-button", "moved-button"]


@pytest.mark.parametrize("ohms", [0.042, 0.5])
def test_a_sagging_supply_is_named_and_the_budget_it_holds_keeps_the_rail_up(ohms: float) -> None:
    open_mv, idle_ma, lit_ma = 5000, 427, 5000
    dark = Reading(round(open_mv - idle_ma * ohms), idle_ma)
    lit = Reading(round(open_mv - lit_ma * ohms), lit_ma)
    budget, found, figures = findings.supply(REF, dark, lit)
    assert figures["source_mohm"] == pytest.approx(ohms * 1000, abs=2)
    if lit.rail_mv >= findings.MIN_RAIL_MV:
        assert (budget, found) == (REF.power_ma, [])
    else:
        assert [f.fault for f in found] == ["undersized-supply"] and budget < REF.power_ma
        assert open_mv - budget * ohms >= findings.MIN_RAIL_MV  # what it writes holds the rail


def test_a_rail_the_adc_cannot_see_says_to_fit_the_divider() -> None:
    budget, found, _ = findings.supply(REF, Reading(12, 427), Reading(10, 5000))
    assert budget == REF.power_ma and found[0].fault == "no-rail-reading" and "divider" in found[0].words


def test_the_diff_shows_one_line_per_moved_cell() -> None:
    cells = list(REF.cells)
    cells[0], cells[1] = cells[1], cells[0]
    after = layout_file.corrected(REF, cells=cells)
    diff = layout_file.diff(REF.to_json(), after, "out.json")
    changed = [line for line in diff.splitlines()[2:] if line[:1] in "+-"]
    assert changed and all(re.fullmatch(r"[-+]  \[-?\d+, -?\d+\],?", line) for line in changed)
