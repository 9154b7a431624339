"""``validator serve``: the live preview, rebuilt as the inputs change."""

from __future__ import annotations

import argparse
from pathlib import Path

from validator.commands.common import absolute
from validator.serve import serve
from validator.store import Store


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--site-dir", type=Path, default=Path("site"), metavar="DIR",
                         help="where the sites go (default: site/)")
    command.add_argument("--port", type=_port, default=8000,
                         help="port on 127.0.0.1, 1 to 65535, or 0 for any free one (default: 8000)")


def run(project: Path, arguments: argparse.Namespace, store: Store) -> int:
    return serve(project, absolute(arguments.site_dir), arguments.port, store)


def _port(text: str) -> int:
    """A port to serve on, checked before anything is built: 0 asks for any free one."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535, or 0 for any free one)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (1 to 65535, or 0 for any free one)")
    return port
