"""`python -m engine run|check|coverage`: the scenario command line documented in the README, which
lives with the scenario format in casebook/cli.py."""

from __future__ import annotations

import sys

from casebook.cli import main

sys.exit(main())
