"""``python -m citecheck``: the command line, for when the ``citecheck`` script is not on PATH."""

import sys

from citecheck.cli import main

sys.exit(main())
