"""``python -m validator`` runs the command line."""

from validator.cli import run

run()
