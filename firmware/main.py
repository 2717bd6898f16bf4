# Board entry point: pick the HAL for where we run, then start the firmware.
# On the Pico, the safe-mode button (GP28 to ground, hardware/pinout.md) held
# at power-on skips the firmware: the USB serial stays with the REPL, so
# mpremote can always replace a broken firmware (docs/flashing.md).
import sys

_RP2 = sys.platform == "rp2"
if _RP2:
    # First of all: a host that knocks while the board boots (a service
    # started before the board, a replug, a watchdog reset) sends frames whose
    # bytes include 0x03, which MicroPython takes for Ctrl-C and stops the
    # boot with.  From here on they are data (hal_rp2 keeps it so; its
    # release() gives Ctrl-C back for the REPL).
    import micropython

    micropython.kbd_intr(-1)


def _safe_mode():
    if not _RP2:
        return False
    from machine import Pin

    if Pin(28, Pin.IN, Pin.PULL_UP).value():
        return False
    micropython.kbd_intr(3)  # the REPL's Ctrl-C back
    print("botboard: safe mode (button held at power-on), firmware not started")
    return True


def _start():
    # A Ctrl-C that arrived before the line above is still pending and is
    # raised in the first lines that run: start again (only the boot is
    # repeated; once kbd_intr(-1) holds, no further one can come)
    for _ in range(3):
        try:
            from bbfw import app

            app.main()
            return
        except KeyboardInterrupt:
            pass


if not _safe_mode():
    _start()
