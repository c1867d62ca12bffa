"""``python -m fiveup_solver``: the ``fiveup`` command line."""
import sys

from fiveup_solver.cli import main

sys.exit(main())
