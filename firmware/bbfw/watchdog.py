# Watchdog fed only while the main loop is healthy.
#
#   wd = Watchdog(wdt, tasks=TASKS, stale_ms=2000, clock=time.ticks_ms)
#       wdt    machine.WDT (or NullWDT on the unix port / in tests)
#   wd.checkin(task)      each task calls this every loop (task 0..tasks-1)
#   wd.feed() -> bool     feeds wdt only if every task checked in within
#                         stale_ms; False (not fed) names a stalled task in
#                         wd.stalled
#   await wd.run(period_ms=500)   the feeder as an asyncio task
#   make_wdt(timeout_ms)  machine.WDT when the port has one, else NullWDT
# A hung task stops the feeding and the hardware resets the board after the
# WDT timeout (at most about 8.3 s on the RP2040); an exception that kills
# the loop does too.  machine.WDT cannot be stopped once started, so it is
# created only when the firmware starts for real (not in safe mode, not
# before handing the port to the REPL: deploy reboots the board after).
import time
from array import array

# the firmware's tasks that check in (bbfw.app): the WDT is fed only while
# every one of them keeps looping
INPUT_TASK = 0
RENDER_TASK = 1
LINK_TASK = 2
TASKS = 3


class NullWDT:
    # stand-in with the machine.WDT interface; counts feeds for tests
    def __init__(self, timeout=0):
        self.timeout = timeout
        self.fed = 0

    def feed(self):
        self.fed += 1


def make_wdt(timeout_ms=8000):
    try:
        from machine import WDT
    except ImportError:
        return NullWDT(timeout_ms)
    return WDT(timeout=timeout_ms)


class Watchdog:
    def __init__(self, wdt, tasks=2, stale_ms=2000, clock=time.ticks_ms):
        self._wdt = wdt
        self._clock = clock
        self.stale_ms = stale_ms
        now = clock()
        self._seen = array("i", [now] * tasks)
        self.stalled = -1  # the task that stopped the last feed, or -1

    def checkin(self, task):
        self._seen[task] = self._clock()

    def feed(self):
        now = self._clock()
        seen = self._seen
        for i in range(len(seen)):
            if time.ticks_diff(now, seen[i]) > self.stale_ms:
                self.stalled = i
                return False
        self.stalled = -1
        self._wdt.feed()
        return True

    async def run(self, period_ms=500):
        import asyncio

        while True:
            self.feed()
            await asyncio.sleep_ms(period_ms)
