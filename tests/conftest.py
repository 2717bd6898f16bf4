import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the shared protocol package is importable as in the firmware
sys.path.insert(0, str(ROOT / "shared"))
