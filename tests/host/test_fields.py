"""The field schedule from the layouts' slot places and the coupling model (board/fields.py)."""

from __future__ import annotations

import copy
import json
import math

import pytest

from botboard.board import fields, layouts

REFERENCE = ("botwars", "goblins", "ttb-big", "ttb-small", "volt")


@pytest.mark.parametrize("name", REFERENCE + ("lasertanks",))
def test_every_shipped_layout_places_its_slots_and_neighbours_never_share_a_group(name: str) -> None:
    layout = layouts.load(name)
    where = layout.slot_positions()
    assert where is not None and len(where) == layout.slot_count
    groups = layout.field_groups()
    assert groups is not None
    for i, near in enumerate(fields.neighbours(where)):
        assert all(groups[j] != groups[i] for j in near), (name, i, near)
    config = layout.board_config()
    assert config["fields"] == "".join(map(str, groups)) and config["rf"] == list(fields.rf())
    # zones: neighbours always share one, and the reference layouts' stations are apart
    zones = fields.zones(where)
    assert config["zones"] == "".join(chr(48 + z) for z in zones)
    for i, near in enumerate(fields.neighbours(where)):
        assert all(zones[j] == zones[i] for j in near), (name, i, near)
    for station in layout.stations:
        assert {zones[s] for s in station.slots} == {zones[station.slots[0]]}


def test_zones_are_the_slots_joined_by_neighbours_numbered_in_slot_order() -> None:
    pitch = fields.model()["reference_pitch_mm"]
    # two rows of three, far apart, and a slot alone; slot order mixes them
    where = [(0.0, 0.0), (1000.0, 0.0), (pitch, 0.0), (500.0, 500.0), (1000.0 + pitch, 0.0),
             (2 * pitch, 0.0), (1000.0 + 2 * pitch, 0.0)]
    assert fields.zones(where) == [0, 1, 0, 2, 1, 0, 1]
    assert len(set(fields.zones(layouts.load("ttb-big").slot_positions() or []))) == 6


def test_at_the_reference_pitch_a_station_alternates_two_groups() -> None:
    m = fields.model()
    pitch = m["reference_pitch_mm"]
    row = [(pitch * i, 0.0) for i in range(6)]
    assert fields.groups(row) == [0, 1, 0, 1, 0, 1]
    # the next slot is within hearing (all fields on: a cross-read), the one after is not
    reach = m["hearing_range_mm"] + m["slot_tolerance_mm"]
    assert pitch <= reach < 2 * pitch
    assert fields.min_pitch() < pitch and fields.problems(row) == []
    ttb = layouts.load("ttb-small").slot_positions()
    assert ttb is not None and math.dist(ttb[0], ttb[1]) == pytest.approx(pitch)


def test_the_drive_powers_a_tile_in_its_slot_but_not_one_half_way_to_the_next() -> None:
    m = fields.model()
    rfcfg, cw, mod = fields.rf()
    need = fields.coupling(m["power_range_mm"]) * m["cw_full"]
    edge = fields.coupling(m["slot_tolerance_mm"]) * cw
    assert edge >= need * m["solid_power_margin"]  # the slot's edge: solidly powered
    assert fields.coupling(m["slot_tolerance_mm"]) * (cw - 1) < need * m["solid_power_margin"]  # the least
    half = fields.coupling(m["reference_pitch_mm"] / 2) * cw
    assert half < need <= 2 * half  # one field does not power it; two neighbours' together do
    assert rfcfg == 0x00 and mod == cw  # 18 dB (RFCfgReg RxGain 000), ModGsPReg as CWGsPReg


def test_every_figure_of_the_model_names_its_source() -> None:
    doc = json.loads(fields.MODEL_PATH.read_text())
    figures = set(fields.model())
    sources = {k[:-len("_source")] for k in doc if k.endswith("_source")}
    # figures documented under a shared source (the margins, the weak-link rates, the laws)
    shared = {"solid_power_margin": "margins", "solid_hearing_margin": "margins",
              "weak_silent": "weak", "weak_garbled": "weak", "garbled_check_valid": "weak",
              "rxgain_garble_factor": "weak", "seed": "weak", "cw_full": "drive_law",
              "field_law": "field_law", "drive_law": "drive_law"}
    laws = {"field_law", "drive_law"}  # stated in words, with their sources, in the file itself
    for key in figures - laws:
        assert any(key.startswith(stem) for stem in sources) or shared.get(key) in sources | laws, key


def test_slot_places_too_close_or_missing_are_refused_with_what_to_do() -> None:
    doc = json.loads((layouts.LAYOUT_DIR / "volt.json").read_text())
    close = copy.deepcopy(doc)
    x, y = close["stations"][0]["slot_mm"][0]
    close["stations"][0]["slot_mm"][1] = [x + 25, y]
    with pytest.raises(layouts.LayoutError, match=r"25 mm apart: each reader powers a tile lying in "
                                                  r"the other's slot.*at least \d+ mm apart"):
        layouts.from_json(close, "volt")
    partial = copy.deepcopy(doc)
    del partial["stations"][2]["slot_mm"]
    with pytest.raises(layouts.LayoutError, match="slot_mm is missing for station 'south'"):
        layouts.from_json(partial, "volt")
    short = copy.deepcopy(doc)
    short["stations"][1]["slot_mm"].pop()
    with pytest.raises(layouts.LayoutError, match="station 'east' has 4 slots but 3 slot_mm places"):
        layouts.from_json(short, "volt")
    # no places at all: no schedule, every field on (a board built before slot places)
    for station in doc["stations"]:
        del station["slot_mm"]
    assert "fields" not in layouts.from_json(doc, "volt").board_config()
