"""``python -m validator`` runs the command line."""

import sys

from validator.cli import main

sys.exit(main())
