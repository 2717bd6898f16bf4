# Firmware figures, measured in the simulated board (unix port); run by
# `botboard bench firmware`, which converts them to hardware time.
#
#   micropython -m bbfw.sim.bench CONFIG MODE [ITERATIONS]
#   MODE "load": the workload only (boot, a session, tags, every cell
#       animated, state readback) under asyncio with the real tasks; prints
#       {"ok": true, ...} - run at shrinking heap sizes to find the peak.
#   MODE "figures": memory by stage, allocation per main-loop iteration,
#       interpreter times of the steps.
#   MODE "counts": SPI / air / link byte counts per event, driver-only
#       interpreter times, a calibration loop (run alone: its own readers).
# Prints one JSON object.  Sim-only code (unix port).
import gc
import json
import sys

gc.collect()
_BASE = gc.mem_alloc()

from bbshared import messages as m  # noqa: E402  (measured: imports after _BASE)
from bbshared import tilepayload as tp  # noqa: E402,F401
from bbfw import app  # noqa: E402,F401

gc.collect()
_BOARD_IMPORTS = gc.mem_alloc()
from bbfw import hal_sim  # noqa: E402,F401
from bbfw.sim.box import Box, PAYLOAD, animate, uid as _uid  # noqa: E402

gc.collect()
_SIM_IMPORTS = gc.mem_alloc()
MEM = {"imports_board": _BOARD_IMPORTS - _BASE, "imports_sim_only": _SIM_IMPORTS - _BOARD_IMPORTS}

def load(config):
    import asyncio

    box = Box(config)
    board = box.board
    cfg = board.cfg

    async def host():
        try:
            await session()
        finally:
            board.running = False  # a MemoryError here must still end the run

    async def session():
        box.hello()
        await asyncio.sleep_ms(20)
        box.send(m.SET_PRIORITY, bytes(range(6)))
        for s in range(0, cfg["slots"], 3):
            box.field.place(s, _uid(s), PAYLOAD)
        await asyncio.sleep_ms(300)
        animate(box, cfg["cells"])
        await asyncio.sleep_ms(200)
        box.send(m.GET_STATE, 0)
        box.send(m.PING, 7)
        for s in range(0, cfg["slots"], 3):
            box.field.remove(s)
        await asyncio.sleep_ms(300)

    async def main():
        asyncio.create_task(host())
        await board.run()

    failed = []

    def handler(loop, context):
        failed.append(repr(context["exception"]))
        board.running = False

    asyncio.get_event_loop().set_exception_handler(handler)
    asyncio.run(main())
    gc.collect()
    return {"ok": not failed, "failed": failed, "slot_events": len(box.said(m.SLOT)),
            "heap_used": gc.mem_alloc(), "frames": box.hal.strip.frames}


def main():
    argv = sys.argv
    config = argv[1]
    mode = argv[2] if len(argv) > 2 else "figures"
    if mode == "load":
        result = load(config)
    else:
        from bbfw.sim import bench_figures as bf

        if mode == "counts":
            result = {"counts": bf._counts(config), "calibration_loop_us": bf._calibration()}
        else:
            result = bf.figures(config, int(argv[3]) if len(argv) > 3 else 10000, MEM,
                                mode == "quick")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
