"""The whole firmware (Board over the simulated HAL) in MicroPython: errors to the
host, priorities, settings, boot checks, the REPL handoff."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bbshared import messages as m
from botboard.board import layouts
from tests.mpy import run_mpy

SETUP = """
import json, time, sys, gc
def out(doc):  # streamed: one big JSON string needs a block a fragmented heap may not have
    gc.collect()
    json.dump(doc, sys.stdout)
    print()
from bbfw.sim.box import Box
from bbshared import messages as m, tilepayload as tp
U = b'\\x04\\x01\\x02\\x03\\x04\\x05'
def uid(i): return U + bytes((i,))
TILE = tp.encode(1, 3, 2, 9)
box = Box(CONFIG, HARDWARE)
box.hello()
"""


@pytest.fixture(scope="module")
def configs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = {}
    d = tmp_path_factory.mktemp("configs")
    for name in ("ttb-small", "ttb-big"):
        cfg = layouts.load(name).board_config()
        path = d / f"{name}.json"
        path.write_text(json.dumps(cfg))
        out[name] = str(path)
        cfg["stuck_ms"] = 40
        path = d / f"{name}-stuck.json"
        path.write_text(json.dumps(cfg))
        out[f"{name}-stuck"] = str(path)
    out["missing"] = str(d / "nothing-here.json")
    cfg = layouts.load("ttb-small").board_config()
    del cfg["power_ma"]  # a hand-written config that names no budget
    path = d / "no-budget.json"
    path.write_text(json.dumps(cfg))
    out["no-budget"] = str(path)
    return out


def run(code: str, config: str, hardware: str | None = None) -> Any:
    prefix = SETUP.replace("CONFIG", repr(config)).replace("HARDWARE", repr(hardware))
    return json.loads(run_mpy(prefix + code).strip().splitlines()[-1])


def test_bad_tags_and_a_dead_reader_are_errors_with_the_slot_and_the_board_goes_on(configs: dict[str, str]) -> None:
    r = run("""
box.field.place(0, uid(0))                                  # blank sticker
box.field.place(1, uid(1), TILE[:15] + b'\\x00')           # corrupt payload
box.field.place(2, uid(2), tp.encode(2, 1, 1, 5))           # a BotWars tile
box.field.kill(3)
box.send(m.SET_PRIORITY, bytes([0, 1, 2, 3]))
box.steps(12)
errors = sorted(box.errors())
box.forget()
box.field.revive(3)
box.field.place(3, uid(3), TILE)
box.steps(12)
later = [[s[0], s[1], s[3].hex()] for s in box.said(m.SLOT)]
out(({"errors": errors, "later": later, "again": box.errors(), "tile": TILE.hex()}))
""", configs["ttb-small"])
    assert [e[:2] for e in r["errors"]] == [[4, 0], [4, 1], [4, 2], [5, 3]]
    texts = [e[2] for e in r["errors"]]
    assert texts[0] == "slot 0: tag has no tile payload"
    assert texts[1] == "slot 1: tile payload corrupt"
    assert texts[2] == "slot 2: a tile of game 2, not of this board's game 1"
    assert texts[3] == "slot 3: reader not answering"
    # the revived reader's tile arrives, with its payload; nothing is reported twice
    assert r["later"] == [[3, 1, r["tile"]]]
    assert r["again"] == []


def test_a_stuck_button_is_reported_once_with_its_number(configs: dict[str, str]) -> None:
    r = run("""
box.steps(4, sleep_ms=10)  # past the power-on scans (a key down in them is stuck from power-on)
box.hal.matrix.down[5] = 1
for i in range(400):
    box.steps(1, sleep_ms=1)
    if box.errors():
        break
box.steps(20, sleep_ms=1)
out(({"buttons": box.said(m.BUTTON), "errors": box.errors()}))
""", configs["ttb-small-stuck"])
    assert r["buttons"][0] == [5, 1]  # pressed first
    assert r["errors"] == [[6, 5, "button 5 stuck down"]]


def test_a_press_between_two_input_steps_is_seen_by_the_render_steps_look(configs: dict[str, str]) -> None:
    # on a Pico a busy frame and a step of reader polls take 7-15 ms each: the
    # matrix is scanned between them too, not only in the input task's turns (a
    # press that fell between two of them, 40-80 ms apart, was lost)
    r = run("""
box.steps(4, sleep_ms=10)  # past the power-on scans
board = box.board
box.hal.matrix.down[2] = 1
time.sleep_ms(10)
board.render_step(time.ticks_ms())  # no input step while the key is down
box.hal.matrix.down[2] = 0
time.sleep_ms(10)
box.steps(6, sleep_ms=10)
out(({"buttons": box.said(m.BUTTON)}))
""", configs["ttb-small"])
    assert r["buttons"][:2] == [[2, m.PRESS], [2, m.RELEASE]]


def test_priority_slots_are_read_first_end_to_end(configs: dict[str, str]) -> None:
    r = run("""
box.field.place(31, uid(31), TILE)
box.field.place(5, uid(5), TILE)
box.forget()
box.send(m.SET_PRIORITY, bytes([30, 31, 32, 33, 34, 35]))   # and one step
box.steps(1)
first = [s[0] for s in box.said(m.SLOT)]
box.steps(80)
out(({"first": first, "all": sorted(s[0] for s in box.said(m.SLOT)),
                  "budget": box.board.scan_budget}))
""", configs["ttb-big"])
    # selected, its payload read at once, in its field group's turn: within two steps (the
    # first looks at the station's group 0, the second at group 1, slot 31's)
    assert 31 in r["first"]
    assert r["all"] == [5, 31]  # the other slot is read too
    assert r["budget"] == 7  # the whole station and one other slot per step


def test_present_after_and_absent_after_are_set_by_the_host(configs: dict[str, str]) -> None:
    r = run("""
box.send(m.SET_PRIORITY, bytes([4]))
box.send(m.SET_CONFIG, m.CONFIG_PRESENT_AFTER, 4)
box.send(m.SET_CONFIG, m.CONFIG_ABSENT_AFTER, 2)
box.forget()
box.field.place(4, uid(4), TILE)
steps = 0
while not box.said(m.SLOT) and steps < 50:
    box.steps(1)
    steps += 1
arrival = steps
box.board.scanner.present_every = 1
box.field.remove(4)
while len(box.said(m.SLOT)) < 2 and steps < 100:
    box.steps(1)
    steps += 1
out(({"arrival": arrival, "departure": steps - arrival,
                  "events": [s[:2] for s in box.said(m.SLOT)]}))
""", configs["ttb-small"])
    # slot 4 is looked at in its field group's turn, every other step (ttb-small: two
    # groups); once it holds a tile, in one turn of its group in five (the tile checks' cycle)
    assert r["arrival"] in (2 * 4 - 1, 2 * 4) and r["departure"] <= 2 * 2 * 5
    assert r["events"] == [[4, 1], [4, 0]]


def test_a_config_for_another_layout_is_refused_with_errors_and_the_board_still_reads(configs: dict[str, str]) -> None:
    # board.json of the big arena on the small arena's hardware
    r = run("""
box.field.place(2, uid(2), TILE)
box.steps(40)
out(({"errors": box.errors(), "slots": [s[:2] for s in box.said(m.SLOT)]}))
""", configs["ttb-big"], configs["ttb-small"])
    codes = [e[:2] for e in r["errors"]]
    assert [7, 24] in codes  # E_CONFIG at the first slot with no reader
    assert [10, 0] in codes and [10, 1] in codes  # both LED chains shorter than configured
    assert any("expects 36 readers" in e[2] for e in r["errors"])
    assert [2, 1] in r["slots"]


def test_a_missing_config_boots_an_empty_board_that_says_why(configs: dict[str, str]) -> None:
    r = run("""
box.steps(3)
out(({"hello": box.said(m.HELLO)[-1], "errors": box.errors()}))
""", configs["missing"])
    assert r["hello"][2:7] == ["none", 0, 0, 0, 0]
    assert r["errors"][0][0] == 7 and "no board config" in r["errors"][0][2]


def test_boot_errors_are_sent_again_after_every_hello_req(configs: dict[str, str]) -> None:
    r = run("""
n1 = len(box.errors())
box.hello(epoch=2)
out(({"first": n1, "total": len(box.errors())}))
""", configs["missing"])
    assert r["first"] == 1 and r["total"] == 2


def test_the_repl_message_stops_the_firmware_loop(configs: dict[str, str]) -> None:
    r = run("""
box.send(m.REPL)
out(({"running": box.board.running, "handoff": box.board.handoff}))
""", configs["ttb-small"])
    assert r == {"running": False, "handoff": True}


def test_boot_checks_find_what_the_hardware_lacks() -> None:
    out = run_mpy("""
import json
from bbfw import selftest
cfg = {"layout": "x", "leds_per_cell": 7, "chains": [[2, 0, 10], [3, 10, 10]]}
print(json.dumps([
    selftest.check(cfg, bytearray([1, 1, 0, 0, 0]), [False, None]),
    selftest.check(cfg, bytearray([1, 0, 1, 0, 0]), [True, False]),
    selftest.check(cfg, bytearray([1, 1, 1, 1, 0]), [None, None]),
]))
""")
    prefix_config, holes, one_missing = json.loads(out.strip().splitlines()[-1])
    assert [e[:2] for e in prefix_config] == [[7, 2]]
    assert [e[:2] for e in holes] == [[10, 0]]  # scattered missing readers: the scanner reports them
    assert one_missing == []


def test_departures_are_seen_when_every_priority_slot_holds_a_tile(configs: dict[str, str]) -> None:
    # the tag checks take turns: no slot of a full station is starved
    r = run("""
box.send(m.SET_PRIORITY, bytes(range(6)))
for s in range(6):
    box.field.place(s, uid(s), TILE)
box.steps(30)
arrived = sorted(e[0] for e in box.said(m.SLOT) if e[1])
box.forget()
gone = []
for s in (5, 4, 0):
    box.field.remove(s)
    steps = 0
    while not box.said(m.SLOT) and steps < 200:
        box.steps(1)
        steps += 1
    gone.append([e[:2] for e in box.said(m.SLOT)])
    box.forget()
out(({"arrived": arrived, "gone": gone}))
""", configs["ttb-big"])
    assert r["arrived"] == [0, 1, 2, 3, 4, 5]
    assert r["gone"] == [[[5, 0]], [[4, 0]], [[0, 0]]]


# A fresh board (no SET_CONFIG ever sent) told to show every cell white, as a
# host would: the strip's own bytes must draw no more than the layout's budget.
WHITE = """
box.forget()
box.send(m.SET_RANGE, 0, bytes([1, m.look(m.NO_FACING, m.SOLID)]) * box.board.cell_count)
box.steps(2)
buf = box.hal.strip.buf
leds = len(buf) // 3
out(({"budget": box.board.renderer.budget_ma, "errors": box.errors(),
                  "drawn_ma": leds + sum(buf) * 20 // 255, "estimate": box.board.renderer.current_ma,
                  "lit": min(buf[3 * (7 * c)] for c in range(box.board.cell_count))}))
"""


@pytest.mark.parametrize("name", ["ttb-small", "ttb-big"])
def test_a_fresh_board_clamps_a_full_white_frame_to_its_layouts_budget(configs: dict[str, str], name: str) -> None:
    budget = layouts.load(name).power_ma
    assert budget == {"ttb-small": 5000, "ttb-big": 8000}[name]  # hardware/power.md
    r = run(WHITE, configs[name])
    assert r["errors"] == []
    assert r["budget"] == budget
    # white everywhere would draw 25-38 A unclamped; the frame sent fits the
    # budget yet is not blacked out (clamped, every cell still lit)
    assert budget * 0.9 < r["drawn_ma"] <= r["estimate"] <= budget
    assert r["lit"] > 0


def test_a_config_without_a_budget_gets_the_usb_safe_default(configs: dict[str, str]) -> None:
    r = run(WHITE, configs["no-budget"])
    assert r["budget"] == 400  # bbfw.config.DEFAULT_POWER_MA: what a USB port can feed
    # 427 dark LEDs alone are estimated at 427 mA: nothing is lit at all
    assert r["drawn_ma"] == 427 and r["lit"] == 0


def test_a_host_that_keeps_asking_gets_one_census_not_one_per_try(configs: dict[str, str]) -> None:
    # HELLOs lost on the way back: the host asks again and again, hearing nothing;
    # what the board holds for it stays one window of one census, not a pile of
    # them, and once the line heals the host hears that census whole, once
    r = run("""
from bbshared.frame import Deframer
for s in range(10):
    box.field.place(s, uid(s), TILE)
box.steps(40)
box._df = Deframer(lambda *a: None, box._bad)  # nothing the board says arrives: no ACKs
for e in range(20):  # each try says it took frames of session 1 (box.hello() opened it)
    box.hello(epoch=e % 14 + 2, seen=(1, 0))
    box.steps(3)
kinds = [item[1] for item in box.board.link._queue] + [e[0] for e in box.board._events]
box._df = Deframer(box._frame, box._bad)  # the line heals: what is resent arrives
box.forget()
box.steps(60, sleep_ms=20)
out(({"held": len(kinds), "held_slots": kinds.count(m.SLOT), "window": box.board.link.window,
      "slots": [s[0] for s in box.said(m.SLOT)], "done": len(box.said(m.CENSUS_DONE))}))
""", configs["ttb-small"])
    assert r["held"] == r["held_slots"] <= r["window"]
    assert sorted(r["slots"]) == list(range(10)) and r["done"] == 1


def test_no_led_chain_draws_more_than_its_fuse_allows_whatever_the_picture(configs: dict[str, str]) -> None:
    # ttb-big: two chains of 46 and 45 cells, 8 A for the arena, 4 A a chain (5 A fuses)
    r = run("""
import random
random.seed(7)
cfg = box.board.cfg
spans = [(c[1], c[1] + c[2]) for c in cfg["chains"]]
def chain_ma():
    buf = box.hal.strip.buf
    view = memoryview(buf)  # sums without copying the strip
    return [7 * (b - a) + sum(view[21 * a:21 * b]) * 20 // 255 for a, b in spans]
chunk = bytearray(64)
def show(cell):  # 16 cells a message, each made when sent: small frames, small allocations
    n = cfg["cells"]
    for at in range(0, n, 16):
        count = min(16, n - at)
        for j in range(count):
            i, p, f, e = cell(at + j)
            chunk[4 * j:4 * j + 4] = bytes((0, i, p, m.look(f, e)))
        box.send(m.SET_CELLS, bytes(chunk[:4 * count]))
    box.steps(2)
    return chain_ma()
seen = []
lit = spans[0][1]
seen.append(show(lambda i: (i, 1 if i < lit else 0, 15, m.SOLID if i < lit else m.OFF)))  # one chain white
seen.append(show(lambda i: (i, 1, i % 6, m.SOLID)))  # all white, facing
for _ in range(6):  # random pictures
    seen.append(show(lambda i: (i, random.getrandbits(4), random.getrandbits(3) % 6,
                                random.choice((m.SOLID, m.SPIN, m.OFF)))))
out(({"seen": seen, "chain_ma": box.board.renderer.chain_ma, "errors": box.errors()}))
""", configs["ttb-big"])
    assert r["chain_ma"] == 4000 and r["errors"] == []
    assert all(ma <= r["chain_ma"] for picture in r["seen"] for ma in picture), r["seen"]
    first = r["seen"][0]
    assert first[0] > 3600 and first[1] == 7 * 45  # capped by its own fuse, not dimmed to nothing


def test_the_host_cannot_raise_the_led_power_limit_past_the_supply(configs: dict[str, str]) -> None:
    r = run("""
seen = []
for value in (0, 65535, 3000, 9000):
    box.forget()
    box.send(m.SET_CONFIG, m.CONFIG_POWER_MA, value)
    box.steps(2)
    seen.append([value, box.board.renderer.budget_ma, [e[:2] for e in box.errors()]])
out(({"out": seen, "text": box.errors()}))
""", configs["ttb-big"])
    assert r["out"] == [[0, 8000, [[m.E_CONFIG, m.CONFIG_POWER_MA]]],
                        [65535, 8000, [[m.E_CONFIG, m.CONFIG_POWER_MA]]],
                        [3000, 3000, []],
                        [9000, 3000, [[m.E_CONFIG, m.CONFIG_POWER_MA]]]]
    assert "the supply gives 8000 mA" in r["text"][0][2] and "kept at 3000 mA" in r["text"][0][2]


def test_an_unreadable_tag_and_two_tags_in_a_slot_are_slot_states_until_put_right(
        configs: dict[str, str]) -> None:
    r = run("""
def states(n):
    box.forget()
    box.steps(n)
    return [s[:2] for s in box.said(m.SLOT)]
seen = {}
box.field.place(4, uid(4), TILE, 1)         # ntag FAULT_CRC: every answer with a CRC arrives wrong
box.send(m.SET_PRIORITY, bytes([4, 5]))
seen["detuned"] = states(40)
box.field.remove(4)
seen["taken away"] = states(40)
box.field.place(5, uid(5), TILE)
seen["one tile"] = states(20)
box.field.add_second_tag(5, uid(6), TILE)   # a second tile laid on it
seen["stacked"] = states(80)
box.hello(epoch=2)                          # a host reconnecting hears it in the census
box.steps(3)
seen["census"] = [s[:2] for s in box.said(m.SLOT)]
box.field.place(5, uid(5), TILE)            # the second one taken away
seen["put right"] = states(80)
out(seen)
""", configs["ttb-small"])
    assert r["detuned"] == [[4, m.SLOT_UNREADABLE]]  # said once, not a tile, not silence
    assert r["taken away"] == [[4, m.SLOT_EMPTY]]
    assert r["one tile"] == [[5, m.SLOT_TAG]]
    assert r["stacked"] == [[5, m.SLOT_SEVERAL]]
    assert [5, m.SLOT_SEVERAL] in r["census"]
    assert r["put right"] == [[5, m.SLOT_TAG]]


def test_cells_from_the_host_are_drawn_in_the_link_step_that_reads_them(configs: dict[str, str]) -> None:
    # confirm -> first frame: a SET_CELLS is shown by the link step that reads
    # it, not on the render task's next tick, and that frame keeps the arena's
    # and every chain's current limit (ttb-big: 8 A, 4 A a chain)
    r = run("""
cfg = box.board.cfg
spans = [(c[1], c[1] + c[2]) for c in cfg["chains"]]
strip = box.hal.strip
def chain_ma():
    view = memoryview(strip.buf)
    return [7 * (b - a) + sum(view[21 * a:21 * b]) * 20 // 255 for a, b in spans]
box.steps(2)
frames = strip.frames
box.queue(m.SET_CELLS, bytes((0, 3, 2, m.look(m.NO_FACING, m.SOLID))))
box.board.link_step(time.ticks_ms())  # the link step alone: no render step
one = {"frames": strip.frames - frames, "centre": list(strip.buf[63:66])}
frames = strip.frames
white = bytes([1, m.look(m.NO_FACING, m.SOLID)])
box.queue(m.SET_RANGE, 0, white * 46)  # the first chain's cells white: its fuse binds
for _ in range(3):  # the message is longer than one read
    box.board.link_step(time.ticks_ms())
half = {"frames": strip.frames - frames, "chain_ma": chain_ma()}
box.queue(m.SET_RANGE, 0, white * cfg["cells"])
for _ in range(3):
    box.board.link_step(time.ticks_ms())
buf = strip.buf
whole = {"drawn_ma": len(buf) // 3 + sum(buf) * 20 // 255, "chain_ma": chain_ma(),
         "lit": min(buf[21 * c] for c in range(cfg["cells"]))}
out(({"one": one, "half": half, "whole": whole, "errors": box.errors()}))
""", configs["ttb-big"])
    assert r["errors"] == []
    assert r["one"] == {"frames": 1, "centre": [0, 255, 0]}  # palette 2, red: G, R, B on the wire
    assert r["half"]["frames"] >= 1
    first, second = r["half"]["chain_ma"]
    assert 3600 < first <= 4000 and second == 7 * 45  # its own fuse, the other chain dark
    assert r["whole"]["drawn_ma"] <= 8000 and max(r["whole"]["chain_ma"]) <= 4000
    assert r["whole"]["lit"] > 0


def test_the_render_ticks_keep_their_schedule_beside_the_frames_drawn_at_once(
        configs: dict[str, str]) -> None:
    # 50 frames/s: the render step still draws an animated cell on every tick
    # it changes, whatever frames the host's changes were drawn in between
    r = run("""
box.send(m.SET_CELLS, bytes((0, 5, 1, m.look(m.NO_FACING, m.PULSE))))
board = box.board
r = board.renderer
strip = box.hal.strip
t0 = time.ticks_ms()
ticks = []  # per tick: the pulse's level drawn is the tick's, and a frame if it moved
for k in range(1, 41):
    t = t0 + 20 * k
    box.queue(m.SET_CELLS, bytes((0, 9, k % 16, m.look(m.NO_FACING, m.SOLID))))
    board.link_step(t - 10)  # a change from the host between two ticks: its own frame
    shown = strip.frames
    level = r._phase[5]
    board.render_step(t)
    ticks.append([r._phase[5] == r._phase_of(m.PULSE, t), r._phase[5] != level,
                  strip.frames - shown])
out(({"ticks": ticks}))
""", configs["ttb-small"])
    assert all(t[0] for t in r["ticks"])  # every tick drew the pulse as it is at that tick
    assert all(frames == moved for _, moved, frames in r["ticks"])  # and showed it if it moved
    assert sum(moved for _, moved, _ in r["ticks"]) >= 10


def test_a_tick_that_finds_the_last_frame_still_going_out_draws_as_soon_as_it_is_out(
        configs: dict[str, str]) -> None:
    # on the Pico a frame drawn at once by the link step may still be going out
    # (DMA) at the render task's tick: the tick waits 1 ms at a time, not a period
    r = run("""
import asyncio
from bbfw import app
board = box.board
strip = box.hal.strip
busy = [3]  # the DMA holds the strip for three looks
def is_busy():
    busy[0] -= 1
    return busy[0] >= 0
slept = []
real_sleep = asyncio.sleep_ms
def sleep_ms(ms):
    slept.append(ms)
    if strip.frames > shown or len(slept) > 20:  # a tick that never draws fails, not loops
        board.running = False
    return real_sleep(0)
app.asyncio.sleep_ms = sleep_ms
box.send(m.SET_CELLS, bytes((0, 2, 1, m.look(m.NO_FACING, m.PULSE))))  # drawn at once
strip.busy = is_busy  # ... and still going out at the tick
board.renderer._phase[0] = 255  # a change waits for its frame (pending alone draws only a new phase)
board.renderer.pending = True
shown = strip.frames
asyncio.run(board.render_task())
out(({"slept": slept, "frames": strip.frames - shown}))
""", configs["ttb-small"])
    assert r["frames"] == 1
    assert r["slept"][:3] == [1, 1, 1] and r["slept"][3] > 1  # then the schedule goes on
