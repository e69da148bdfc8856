"""`python -m engine …`: the command line documented in the README.

`abilities` prints the ability vocabulary as Markdown (docs/abilities.md is its output);
`implemented [--write]` checks (or regenerates) engine/data/implemented.yaml, the rules text each
handler implements; `cards` (import a card base, find and show a card) is the card base's
(cardbase/cli.py); every other command (`run`, `check`, `coverage`) belongs to the scenario format
and is casebook's.
"""

from __future__ import annotations

import sys

if sys.argv[1:2] == ["abilities"]:
    from engine.model import abilities

    sys.stdout.write(abilities.describe_markdown())
    sys.exit(0)

if sys.argv[1:2] == ["implemented"]:
    from engine import implemented

    sys.exit(implemented.command(sys.argv[2:], sys.stdout, sys.stderr))

if sys.argv[1:2] == ["cards"]:
    from cardbase.cli import main as cards_main

    sys.exit(cards_main(sys.argv[2:]))

from casebook.cli import main

sys.exit(main())
