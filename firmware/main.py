# Board entry point: pick the HAL for where we run, then start the firmware.
# On the Pico, the safe-mode button (GP28 to ground, hardware/pinout.md) held
# at power-on skips the firmware: the USB serial stays with the REPL, so
# mpremote can always replace a broken firmware (docs/flashing.md).
import sys


def _safe_mode():
    if sys.platform != "rp2":
        return False
    from machine import Pin

    if Pin(28, Pin.IN, Pin.PULL_UP).value():
        return False
    print("botboard: safe mode (button held at power-on), firmware not started")
    return True


if not _safe_mode():
    from bbfw import app

    app.main()
