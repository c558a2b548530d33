"""`python -m pegpi`: the command line."""

import sys

from pegpi.cli import main

sys.exit(main())
