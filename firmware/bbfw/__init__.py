# botboard firmware: one code base for the Pico and the simulated board.
FIRMWARE_VERSION = "0.1.0"
