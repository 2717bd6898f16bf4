"""The wheel carries what the board runs: the firmware sources, the protocol code they share
and the layouts, as botboard/payload (host/botboard/resources.py finds them there), so
`botboard deploy` and `botboard run` work without a source checkout."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PAYLOAD = {"firmware": "firmware", "shared": "shared", "hardware/layouts": "hardware/layouts"}


class BuildWithPayload(build_py):
    def run(self) -> None:
        super().run()
        here = Path(__file__).resolve().parent
        for source, target in PAYLOAD.items():
            dest = Path(self.build_lib) / "botboard" / "payload" / target
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(here / source, dest,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.mpy"))


setup(cmdclass={"build_py": BuildWithPayload})
