"""``ChipBoard``: the simulated board with the emulated Pico in place of the unix port.

Everything the host meets is the simulated board's (board/sim.py): the serial line on a
pty that pyserial opens, the pacing, damage and unplugging of the relay, and a control
socket on 127.0.0.1 with the same ops for tiles and buttons. Behind them, node runs
rp2040js with MicroPython's rp2 image, the firmware deployed on its flash filesystem
(flash.py), and the chip models on its pins (node/board.mjs).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..board import firmware_build
from ..board.sim import SimBoard
from ..hardware.generate_layouts import PINS
from ..resources import ROOT
from . import flash, image

NODE_DIR = Path(__file__).with_name("node")
# How long the emulated Pico may take to bring up its USB: a second on a quiet host, but the
# emulator shares the host's cores (a loaded machine runs it several times slower)
USB_PATIENCE_S = 300.0


class ChipError(RuntimeError):
    """The emulated Pico cannot start; the message says what to install or fix."""


def node_binary() -> str:
    node = shutil.which("node")
    if node is None:
        raise ChipError("the emulated Pico runs in node, which is not installed: install "
                        "Node.js 18 or newer (Debian: apt-get install nodejs npm), then bash .ci/setup")
    if not (NODE_DIR / "node_modules" / "rp2040js").is_dir():
        raise ChipError(f"the emulator is not installed in {NODE_DIR}: run bash .ci/setup "
                        f"(or: cd {NODE_DIR} && npm ci)")
    return node


class ChipBoard(SimBoard):
    """The board as MicroPython's rp2 build on an emulated RP2040 runs it.

    ``deployed=False`` starts a Pico that never had the firmware (an empty filesystem);
    ``safe_mode`` holds GP28 low at power-on; ``firmware`` deploys another firmware tree.
    """

    # How much later than a Pico the emulated one answers, at most: rp2040js runs the
    # RP2040 at a fifth to a tenth of its real speed on this class of host (docs/firmware.md);
    # a host's waits on the board are this much longer.
    SLOWER = 10.0

    def __init__(self, layout: str = "ttb-small", baud: int | None = None,
                 link_path: str | None = None, control_port: int | None = None,
                 deployed: bool = True, safe_mode: bool = False, check_image: bool = True,
                 firmware: Path | None = None) -> None:
        super().__init__(layout, baud, link_path, control_port=control_port)
        self.firmware = Path(firmware or ROOT / "firmware")  # deployed from here (tests change a copy)
        self.deployed = deployed
        self.safe_mode = safe_mode
        self.check_image = check_image
        self.resets: list[str] = []  # why the emulated Pico restarted, in order
        self.log: list[str] = []  # what the emulator said on stderr (the last lines)
        self._usb_up = threading.Event()

    def _launch(self) -> subprocess.Popen[bytes]:
        node = node_binary()
        try:
            rp2 = image.locate(self.check_image)
        except image.ImageError as err:
            raise ChipError(str(err)) from None
        spec: dict[str, Any] = {
            "image": str(rp2.firmware), "bootrom": str(rp2.bootrom), "flash": None,
            "fs_offset": flash.FS_OFFSET, "config": self.layout.sim_config(),
            "pins": self.layout.board_config().get("pins") or PINS,
            "models": [[str(self.firmware / "bbfw"), "/lib/bbfw"],
                       [str(ROOT / "shared" / "bbshared"), "/lib/bbshared"]],
            "control_port": self.control_port, "safe_mode": self.safe_mode}
        if self.deployed:
            fs = self.workdir / "littlefs.img"
            build = firmware_build.build(self.firmware, ROOT / "shared", board_only=True)
            fs.write_bytes(flash.image(build, self.layout.board_config()))
            spec["flash"] = str(fs)
        path = self.workdir / "chip.json"
        path.write_text(json.dumps(spec))
        proc = subprocess.Popen([node, str(NODE_DIR / "board.mjs"), str(path)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        threading.Thread(target=self._read_stderr, args=(proc,), daemon=True).start()
        return proc

    def _read_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip()
            if line.startswith('{"reset"'):
                self.resets.append(json.loads(line)["reset"])
            elif line.startswith('{"usb"'):
                self._usb_up.set()
                continue
            self.log = (self.log + [line])[-50:]
            print(f"emulated Pico: {line}", file=sys.stderr, flush=True)

    def plug(self) -> None:
        # the port appears when the Pico's USB device is up, as /dev/ttyACM0 does: MicroPython
        # starts USB early in its boot, a few host seconds into the emulation
        deadline = time.monotonic() + USB_PATIENCE_S
        while not self._usb_up.wait(0.2):
            if self.proc is not None and self.proc.poll() is not None:
                raise ChipError(f"the emulated Pico stopped before its USB came up{self.last_words()}")
            if time.monotonic() > deadline:
                raise ChipError(f"the emulated Pico did not bring up its USB in {USB_PATIENCE_S:g} s"
                                f"{self.last_words()}")
        super().plug()

    def last_words(self) -> str:
        said = super().last_words()
        return said or (":\n" + "\n".join(self.log[-10:]) if self.log else "")
