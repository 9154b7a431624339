"""How large a book's inputs may be: bounds that stop a hostile file at once and grow
with an honest book.

A chapter holds the rules of one chapter, so a fixed bound serves every book (it can
be raised in ``rulebook.yml``).  A catalogue holds every text of the book in one
language, so it grows with the book: its bound is the larger of the default and a
multiple of the bytes of the book's own YAML files, which are themselves bounded one
by one.  A small book cannot bring a huge catalogue, and a large book is not refused
for its size.  Every bound is enforced while the
file is read (see :func:`validator.content.yamlsource.read_input`).
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from validator.content.project import Project
from validator.content.yamlsource import CATALOG_LIMIT, CATALOGUE_SUFFIXES, INPUT_LIMIT, SizeLimit

CATALOGUE_PER_SOURCE_BYTE = 16
"""A catalogue holds each text of the book's YAML once in English and once translated,
with the comments that guide its translator: the bundled book's largest catalogue is a
few times its chapters; this leaves room for a language of long words and many forms."""
MAX_YAML_FILES = 100_000
"""Files of the content folder counted at the most: a folder of more is no book."""


@dataclass(frozen=True)
class BookLimits:
    """The size limits of one book's inputs."""

    input: SizeLimit
    catalogue: SizeLimit

    def of(self, path: Path) -> SizeLimit:
        """The limit of the input at ``path``, by its kind."""
        return self.catalogue if path.suffix in CATALOGUE_SUFFIXES else self.input


DEFAULT_LIMITS = BookLimits(INPUT_LIMIT, CATALOG_LIMIT)
"""The limits of a file read without its book (the engine's own catalogues)."""


def book_limits(root: Path, project: Project) -> BookLimits:
    """The limits of the book at ``root``: those ``rulebook.yml`` sets, else the defaults,
    the catalogues' grown with the book's YAML files (see the module's docstring)."""
    set_in = project.limits
    input_limit = INPUT_LIMIT if set_in.input_mib is None else SizeLimit(
        set_in.input_mib * 2**20, INPUT_LIMIT.of, "check that it is the right file, or raise limits: input_mib in "
        "rulebook.yml")
    if set_in.catalogue_mib is not None:
        catalogue = SizeLimit(set_in.catalogue_mib * 2**20, CATALOG_LIMIT.of,
                              "check that it is the right file, or raise limits: catalogue_mib in rulebook.yml")
    else:
        grown = CATALOGUE_PER_SOURCE_BYTE * yaml_bytes(root / project.content_dir)
        catalogue = CATALOG_LIMIT if grown <= CATALOG_LIMIT.bytes else SizeLimit(grown, CATALOG_LIMIT.of,
                                                                                 CATALOG_LIMIT.fix)
    return BookLimits(input_limit, catalogue)


def yaml_bytes(folder: Path) -> int:
    """The bytes of the regular YAML files in ``folder`` and below (links not followed),
    each counted up to the input limit: what a catalogue's size follows."""
    total = counted = 0
    for here, folders, files in os.walk(folder):
        folders.sort()
        for name in (name for name in files if name.endswith((".yml", ".yaml"))):
            counted += 1
            if counted > MAX_YAML_FILES:
                return total
            with contextlib.suppress(OSError):
                info = os.lstat(os.path.join(here, name))
                if stat.S_ISREG(info.st_mode):
                    total += min(info.st_size, INPUT_LIMIT.bytes)
    return total
