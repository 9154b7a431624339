"""The parsed catalogues (Babel's, every entry with its comments, flags and line) of
one domain, by language: kept from the load, or made again from their files when
first asked for.

Few read them: the translation lint and the preview's comparison of two readings.
The pages read the compact :class:`validator.catalogs.po.RuleCatalog` made of
them.  A build holds its inputs while the pages of two languages render in
processes forked from it, and the parsed catalogues are a large share of what it
holds: it lets them go once the load has made the compact ones, and the lint, in a
process of its own, makes its language's again, from the cache of what was made of
each input (:mod:`validator.content.inputcache`) or by parsing the file: of the bytes
the load read, so that what the lint reports is what the build published.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from babel.messages.catalog import Catalog

from validator.catalogs.po import PO_KIND, catalog_from_bytes
from validator.content.inputcache import kept_from
from validator.content.yamlsource import SizeLimit, read_input
from validator.problems import Problem, ProblemsFound
from validator.store import Store, digest_of


class ParsedCatalogs(Mapping[str, Catalog]):
    """Language code -> its parsed catalogue of one domain, and each entry's msgctxt
    (what the lint's kept findings are named by, known without the catalogue)."""

    def __init__(self, root: Path, limit: SizeLimit | None = None, store: Store | None = None) -> None:
        self._root = root
        self._limit = limit
        self._store = store or Store()
        """Where what was made of each input is kept (the lint, in a job of its own, finds
        there the catalogue the build read, though the file was saved again since)."""
        self._files: dict[str, tuple[str, bytes]] = {}
        self._kept: dict[str, Catalog] = {}
        self._contexts: dict[str, tuple[str, ...]] = {}

    def add(self, code: str, shown_as: str, digest: bytes, catalog: Catalog, keep: bool) -> None:
        """The catalogue the load read of ``code``'s file ``shown_as`` (bytes of ``digest``);
        ``keep``: held, else let go and made again when asked for."""
        self._files[code] = (shown_as, digest)
        self._contexts[code] = tuple(str(message.context or "") for message in catalog if message.id)
        if keep:
            self._kept[code] = catalog

    def contexts(self, code: str) -> tuple[str, ...]:
        """The msgctxt of each entry of ``code``'s catalogue (its header left out), in file order."""
        return self._contexts[code]

    def __getitem__(self, code: str) -> Catalog:
        kept = self._kept.get(code)
        if kept is None:
            shown_as, digest = self._files[code]
            kept = self._kept[code] = _made_again(self._store, self._root / shown_as, shown_as, digest, self._limit)
        return kept

    def __contains__(self, code: object) -> bool:
        return code in self._files

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)


def _made_again(store: Store, path: Path, shown_as: str, digest: bytes, limit: SizeLimit | None) -> Catalog:
    """The catalogue of the bytes the load read: as the results cache kept it (also
    when the file was saved again since, as in the live preview, whose builds run
    while the translator works), else parsed from ``path``, which must still hold them."""
    kept = kept_from(store, PO_KIND, shown_as, digest)
    if isinstance(kept, Catalog):
        return kept
    data = read_input(path, shown_as, limit)
    if digest_of(data) != digest:
        raise ProblemsFound([Problem(shown_as, 0, "", "the file changed while the command ran",
                                     "run the command again once the file is saved")])
    return catalog_from_bytes(data, shown_as)  # the cache kept nothing of these bytes: nothing to ask it again
