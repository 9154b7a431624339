"""Data handed to a page's scripts as a script file that assigns it to a global."""

from __future__ import annotations

import json
from pathlib import Path


def write_global(path: Path, name: str, data: object, sort_keys: bool = False) -> Path:
    """Write ``window.<name>=<data as JSON>;`` to ``path``, streamed piece by piece:
    a search index is megabytes of JSON, and the text whole, then escaped, then
    encoded held several copies of it at the end of a language's page job, when
    its memory is highest.  ``"</"`` becomes ``"<\\/"`` (the same JSON), so the text
    could never end a script early, were it ever inlined; JSON puts either character
    only inside a string, which the encoder gives as one piece."""
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys)
    with path.open("w", encoding="utf-8") as script:
        script.write(f"window.{name}=")
        for piece in encoder.iterencode(data):
            script.write(piece.replace("</", "<\\/"))
        script.write(";\n")
    return path
