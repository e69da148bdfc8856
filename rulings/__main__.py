"""`python -m rulings users …`: the judges' accounts of the journal (see rulings.cli)."""

import sys

from rulings.cli import main

sys.exit(main())
