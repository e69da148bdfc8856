"""`python -m casebook run|check|coverage`: the same command line as `python -m engine …`."""

from __future__ import annotations

import sys

from casebook.cli import main

sys.exit(main())
