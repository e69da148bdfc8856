"""`python -m rules_index search|show|check|graph`: see rules_index.cli."""

import sys

from rules_index.cli import main

sys.exit(main())
