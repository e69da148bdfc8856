"""`python -m engine …`: the command line documented in the README.

`abilities` prints the ability vocabulary as Markdown (docs/abilities.md is its output); every
other command (`run`, `check`, `coverage`) belongs to the scenario format and is casebook's.
"""

from __future__ import annotations

import sys

if sys.argv[1:2] == ["abilities"]:
    from engine.model import abilities

    sys.stdout.write(abilities.describe_markdown())
    sys.exit(0)

from casebook.cli import main

sys.exit(main())
