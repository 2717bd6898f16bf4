"""The emulated Pico: MicroPython's own rp2 build on an emulated RP2040, the board's chips on its pins.

The fourth and closest level of the simulated board (docs/firmware.md): the firmware runs
where a Pico runs it, on MicroPython's rp2 port with its real ``machine``, ``rp2.PIO``,
``rp2.DMA``, USB CDC, heap, flash filesystem and watchdog, in rp2040js under node.

- image: where the rp2 image and the RP2040 boot ROM are, each checked against its record
- flash: the littlefs filesystem as ``botboard deploy`` leaves it on a Pico
- board: ``ChipBoard``, the simulated board's launcher with the emulator in place of the unix port
- node/: the emulator, the pins' wiring, the LED decoder and the control socket (JavaScript);
  the chip models are firmware/bbfw/sim/chip_models.py in MicroPython's webassembly port
"""
