"""The same input gives byte-identical sites, whatever the day of the build.

MkDocs stamps the build date in two places: ``<lastmod>`` in ``sitemap.xml``
(written only when ``site_url`` is set) and the time in the header of
``sitemap.xml.gz``. When ``SOURCE_DATE_EPOCH`` is set (the reproducible-builds
convention, e.g. the time of the last commit) both follow it: MkDocs reads it
for ``<lastmod>``, and the compressed copy is written again with that time.
When it is not set, ``<lastmod>`` is left out, since the day a build ran says
nothing about when the rules changed, and the compressed copy carries time 0.
"""

from __future__ import annotations

import gzip
import io
import os
import re
from collections.abc import Mapping
from pathlib import Path

from validator.site.output import EXIT_USAGE, OutputError

EPOCH_VARIABLE = "SOURCE_DATE_EPOCH"
_LASTMOD = re.compile(rb"\s*<lastmod>[^<]*</lastmod>")
_GZIP_TIME_LIMIT = 2 ** 32


def build_epoch(environ: Mapping[str, str] = os.environ) -> int | None:
    """``SOURCE_DATE_EPOCH`` as seconds, None when unset; a bad value is refused before MkDocs trips on it."""
    value = environ.get(EPOCH_VARIABLE)
    if value is None:
        return None
    if not (value.isascii() and value.isdigit()) or int(value) >= _GZIP_TIME_LIMIT:
        raise OutputError(f"validator: error: {EPOCH_VARIABLE}={value!r} is not a time in whole seconds since "
                          "1970. Fix: set it to a Unix time, such as the last commit's "
                          "(git log -1 --format=%ct), or unset it", EXIT_USAGE)
    return int(value)


def make_reproducible(site: Path, epoch: int | None) -> None:
    """Take the build date out of every sitemap of ``site``, or pin it to ``epoch``."""
    for sitemap in sorted(site.rglob("sitemap.xml")):
        data = sitemap.read_bytes()
        if epoch is None:
            data = _LASTMOD.sub(b"", data)
            _replaced(sitemap, data)
        packed = sitemap.with_name("sitemap.xml.gz")
        if packed.exists():
            _replaced(packed, gzipped(data, epoch or 0))


def _replaced(path: Path, data: bytes) -> None:
    """Put a new file with ``data`` in place of ``path``: the file there may be shared
    with the site being replaced (see :func:`validator.site.rebuild.link_tree`)."""
    fresh = path.with_name(f".{path.name}.new")
    fresh.write_bytes(data)
    os.replace(fresh, path)


def gzipped(data: bytes, mtime: int) -> bytes:
    """``data`` compressed as MkDocs does, with a fixed time in the header."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="sitemap.xml.gz", mode="wb", fileobj=buffer, mtime=mtime) as packed:
        packed.write(data)
    return buffer.getvalue()
