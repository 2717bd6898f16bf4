"""python -m botboard: the botboard command."""

import sys

from .cli import main

sys.exit(main())
