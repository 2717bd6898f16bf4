# Board entry point: pick the HAL for where we run, then start the firmware.
# On the Pico a button held at power-on skips this (safe mode, see docs/flashing.md).
from bbfw import app

app.main()
