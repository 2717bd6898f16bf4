"""Renderer: palette colours, facing LED, effects over time, brightness, power clamp."""

from __future__ import annotations

import json

from tests.mpy import run_mpy

SETUP = """
import json, gc
from bbfw.render import Renderer, OFF, SOLID, BLINK, PULSE, SPIN, NO_FACING
class Strip:
    def __init__(s, n): s.buf = bytearray(3 * n)
    def show(s): pass
st = Strip(91 * 7)
r = Renderer(91, st)
def rgb(led):
    b = st.buf
    return [b[3 * led + 1], b[3 * led], b[3 * led + 2]]
def cell(i):
    return [rgb(7 * i + k) for k in range(7)]
"""


def run(code: str) -> dict:
    return json.loads(run_mpy(SETUP + code).strip().splitlines()[-1])


def test_solid_cell_grb_order_and_facing_side_lit_differently() -> None:
    r = run("""
r.set_cell(3, 4, 2, SOLID)      # blue, facing SW
ch = r.frame(0)
again = r.frame(20)
r.set_cell(4, 2, NO_FACING, SOLID)
r.frame(40)
print(json.dumps({"c": cell(3), "changed": ch, "again": again, "raw": list(st.buf[63:66]),
                  "noface": cell(4), "dark": cell(0)}))
""")
    c = r["c"]
    assert r["changed"] is True and r["again"] is False
    assert c[0] == [0, 0, 255]  # centre: palette 4 = blue
    assert r["raw"] == [0, 0, 255]  # G, R, B on the wire
    assert c[1 + 2] == [127, 127, 255]  # side 2 (SW): half-way to white
    assert [c[1 + f] for f in (0, 1, 3, 4, 5)] == [[0, 0, 63]] * 5  # other sides dim
    assert r["noface"][1:] == [[63, 0, 0]] * 6
    assert r["dark"] == [[0, 0, 0]] * 7


def test_blink_pulse_spin_change_over_time() -> None:
    r = run("""
r.set_cell(0, 2, NO_FACING, BLINK)
r.set_cell(1, 3, NO_FACING, PULSE)
r.set_cell(2, 1, 0, SPIN)
out = []
for t in (0, 100, 400, 800, 1200):
    r.frame(t)
    out.append([cell(0)[0], cell(1)[0], [k for k in range(6) if cell(2)[1 + k][0] == 255]])
print(json.dumps({"out": out}))
""")
    out = r["out"]
    assert [o[0] for o in out] == [[255, 0, 0], [255, 0, 0], [0, 0, 0], [255, 0, 0], [0, 0, 0]]
    pulse = [o[1][1] for o in out]
    assert pulse[0] < pulse[1] < pulse[2] < pulse[3] and pulse[4] < pulse[3]  # rises to 800 ms, falls
    assert pulse[3] == 255 and pulse[0] == 31
    assert [o[2] for o in out] == [[0], [1], [4], [2], [0]]  # the bright side runs clockwise


def test_brightness_scales_every_led() -> None:
    r = run("""
r.set_cell(0, 1, NO_FACING, SOLID)
r.frame(0)
full = cell(0)[0]
r.brightness = 64
ch = r.frame(20)
print(json.dumps({"full": full, "dim": cell(0)[0], "side": cell(0)[1], "ch": ch}))
""")
    assert r["full"] == [255, 255, 255]
    assert r["dim"] == [63, 63, 63] and r["side"] == [15, 15, 15] and r["ch"] is True


def test_power_budget_clamps_the_estimated_current() -> None:
    r = run("""
r.fill(1, 0, SOLID)           # every cell white: far above any budget
r.frame(0)
free = r.current_ma
r.budget_ma = 3000
r.frame(20)
clamped = r.current_ma
scale = r.scale
total = sum(st.buf)
est = 637 + total * 20 // 255
r.budget_ma = 0
r.fill(0, NO_FACING, OFF)
r.frame(40)
print(json.dumps({"free": free, "clamped": clamped, "scale": scale, "est": est, "idle": r.current_ma}))
""")
    assert r["free"] > 10000  # 91 cells, white, no limit
    assert r["clamped"] <= 3000 and r["clamped"] > 2800
    assert 0 < r["scale"] < 256
    # the estimate from per-cell sums errs on the safe side of the strip's own
    # sum (each channel rounds down after scaling: at most 1911 x 20/255 mA)
    assert 0 <= r["clamped"] - r["est"] < 150
    assert r["idle"] == 637  # 1 mA per dark LED


def test_chain_shorter_than_the_cells_is_refused() -> None:
    r = run("""
try:
    Renderer(91, Strip(600))
    msg = None
except ValueError as e:
    msg = str(e)
print(json.dumps({"msg": msg}))
""")
    assert r["msg"].startswith("LED chain shorter than configured")


def test_animated_frames_allocate_nothing() -> None:
    r = run("""
r.fill(2, 1, PULSE)
r.set_cell(5, 3, 0, SPIN)
r.budget_ma = 2500
r.frame(0)
def alloc_of(fn):   # bytes allocated by fn(); locals only, so nothing else counts
    gc.collect()
    a = gc.mem_alloc()
    fn()
    return gc.mem_alloc() - a
def frames():
    for i in range(200):
        r.frame(i * 20)
print(json.dumps({"alloc": alloc_of(frames)}))
""")
    assert r["alloc"] == 0


def test_more_looks_than_the_renderer_keeps_worked_out_are_each_drawn_right() -> None:
    """The renderer keeps a few looks (palette entry and effect) worked out; a board showing
    more at once takes the others the slow way, and a look no cell shows any more gives its
    place up. Every cell must still show its own colours, and a changed palette entry too."""
    r = run("""
for i in range(45):                      # 15 palette entries x 3 effects: 45 looks
    r.set_cell(i, 1 + i % 15, NO_FACING, (SOLID, BLINK, PULSE)[i // 15])
r.frame(0)
first = [cell(i)[0] for i in range(45)]
before = list(r.palette)
for i in range(45):                      # every look leaves; new ones come
    r.set_cell(i, 1 + (i + 7) % 15, i % 6, SOLID)
r.frame(20)
second = [cell(i)[0] for i in range(45)]
r.set_palette(2, 10, 20, 30)
r.frame(40)
print(json.dumps({"first": first, "second": second, "before": before, "pal": list(r.palette),
                  "after": [cell(i)[0] for i in range(45)]}))
""")
    def colour(entry: int, level: int = 32, pal: list[int] = r["before"]) -> list[int]:
        return [v * level >> 5 for v in pal[3 * entry:3 * entry + 3]]

    # at t=0: SOLID and BLINK (its first half) at full, PULSE at its lowest level (4 of 32)
    assert r["first"][:30] == [colour(1 + i % 15) for i in range(30)]
    assert r["first"][30:] == [colour(1 + i % 15, 4) for i in range(30, 45)]
    assert r["second"] == [colour(1 + (i + 7) % 15) for i in range(45)]
    after = [colour(1 + (i + 7) % 15, pal=r["pal"]) for i in range(45)]
    assert r["after"] == after and [10, 20, 30] in after  # entry 2's cells redrawn


def test_prepare_leaves_the_strip_alone_and_draw_gives_what_a_whole_frame_would() -> None:
    # on the Pico the DMA reads strip.buf while a frame goes out: the board works
    # the next frame out meanwhile (prepare) and copies it in once the strip is free
    r = run("""
st2 = Strip(91 * 7)
r2 = Renderer(91, st2)
for x in (r, r2):
    x.budget_ma = 2000  # the power limit moves the scale as the pulse breathes
    for i in range(91):
        x.set_cell(i, 2 + i % 6, i % 6, (PULSE, BLINK, SPIN)[i % 3])
    x.frame(0)
same = untouched = True
for k in range(1, 60):
    before = bytes(st.buf)
    r.prepare(37 * k)
    untouched = untouched and bytes(st.buf) == before
    r.draw()
    r2.frame(37 * k)
    same = same and st.buf == st2.buf
print(json.dumps({"untouched": untouched, "same": same, "scale": r.scale}))
""")
    assert r["untouched"] and r["same"]
    assert 0 < r["scale"] < 256  # the limit was on


def test_a_pulse_moves_in_every_frame_at_fifty_frames_a_second() -> None:
    # 50 frames a second show a pulse only if it moves that often (at 32 levels it
    # moved 35 times a second: the chip's LEDs carried no more frames than that)
    r = run("""
r.set_cell(0, 2, NO_FACING, PULSE)
r.frame(0)
print(json.dumps({"moved": [r.frame(20 * k) for k in range(1, 81)]}))
""")
    assert all(r["moved"])


def test_a_change_between_prepare_and_draw_is_in_the_frame_drawn() -> None:
    # the board prepares while the last frame goes out; a change from the host that
    # comes meanwhile is prepared again before the draw, each cell listed once
    r = run("""
for i in range(91):
    r.set_cell(i, 2 + i % 6, i % 6, PULSE)
r.frame(0)
r.prepare(40)
r.set_cell(7, 4, NO_FACING, SOLID)
for k in range(5):  # again and again, the pulse moving: no cell listed twice
    r.prepare(40 + 15 * k)
listed = r._ntodo
r.draw()
print(json.dumps({"listed": listed, "centre": rgb(7 * 7), "side": rgb(7 * 7 + 1)}))
""")
    assert r["listed"] <= 91
    assert r["centre"] == [0, 0, 255] and r["side"] == [0, 0, 63]  # blue, solid, no facing


def test_the_cells_are_kept_in_runs_of_their_effect() -> None:
    # a frame visits only the runs of the effects whose phase moved: every cell must
    # be in its effect's run, once, whatever the looks set
    r = run("""
import random
ok = True
for trial in range(30):
    for i in range(91):
        r.set_cell(i, random.getrandbits(4), 255, random.getrandbits(8) % 5)
    r.frame(20 * trial)
    o, st = list(r._order), list(r._starts)
    ok = ok and sorted(o) == list(range(91)) and st[0] == 0 and st[5] == 91
    ok = ok and all(r._key[o[j]] % 5 == e for e in range(5) for j in range(st[e], st[e + 1]))
print(json.dumps({"ok": ok}))
""")
    assert r["ok"]
