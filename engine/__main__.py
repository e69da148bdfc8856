"""`python -m engine run|check|coverage`: see engine/cli.py."""

from __future__ import annotations

import sys

from engine.cli import main

sys.exit(main())
