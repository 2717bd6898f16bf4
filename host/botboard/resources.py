"""Where the firmware sources, the protocol code they share and the layouts are.

From a source checkout, the checkout itself; from an installed wheel, the copies it
carries in ``botboard/payload`` (setup.py puts them there), so ``botboard deploy``
and ``botboard run`` work without a checkout. The default data directory follows:
the checkout's ``var/``, else ``$XDG_DATA_HOME/botboard``.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parents[1]  # host/botboard -> the checkout


def _root() -> Path:
    if (_CHECKOUT / "firmware" / "main.py").is_file() and (_CHECKOUT / "hardware" / "layouts").is_dir():
        return _CHECKOUT
    return _PACKAGE / "payload"


ROOT = _root()
IN_CHECKOUT = ROOT == _CHECKOUT
DEFAULT_DATA_DIR = ROOT / "var" if IN_CHECKOUT else \
    Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "botboard"
