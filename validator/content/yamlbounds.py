"""The bounds every YAML text the engine reads is held to, in one place.

A YAML file is small text that can stand for huge data: aliases share one node
however often they are repeated, so nine lines of nine aliases each stand for
nine to the ninth values, and anything that walks the result (a validator, a
deep copy, MkDocs' own loader) visits each alias as a full copy.  Every reader of
the engine composes the text with :class:`BoundedComposing` first, which counts the
values as the copies they stand for and the nesting as it goes, and refuses the
text at the line where a bound is passed, before anything walks it.

The books (read with ruamel.yaml's round-trip loader, see
:mod:`validator.content.yamlsource`) and MkDocs' configuration files (composed
with PyYAML, as MkDocs reads them, see :func:`compose_bounded`) share the bounds and
the counting.
"""

from __future__ import annotations

from typing import Any

import yaml  # type: ignore[import-untyped]

MAX_DEPTH = 40
"""Nesting deeper than any rulebook needs; the parser itself would overflow at a few hundred."""
MAX_NODES = 200_000
"""Values in one document counting every alias as the copy it stands for (the bundled
chapters have a few thousand): bounds a "billion laughs" alias bomb before anything
walks the data."""


class YamlRefused(Exception):
    """A document beyond the bounds above, with the line where that became clear."""

    def __init__(self, line: int, message: str, fix: str) -> None:
        super().__init__(message)
        self.line, self.message, self.fix = line, message, fix


class BoundedComposing:
    """Counting for a YAML composer (ruamel's or PyYAML's, mixed in before it): the
    depth and the values each node stands for, aliases expanded, as the node graph is
    built.  Composing stays linear in the text, since aliases share nodes; the count
    is what anything walking the result would visit, known before it walks."""

    _depth: int
    _total: int
    _sizes: dict[int, int]

    def _peek(self) -> Any:
        """The next event of the parser (where each library keeps it differs)."""
        raise NotImplementedError

    def compose_document(self) -> Any:
        self._depth, self._total, self._sizes = 0, 0, {}
        return super().compose_document()  # type: ignore[misc]

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self._peek()
        line = event.start_mark.line + 1 if event.start_mark else 0
        if type(event).__name__ == "AliasEvent":
            node = super().compose_node(parent, index)  # type: ignore[misc]
            size = self._sizes.get(id(node))
            if size is None:
                raise YamlRefused(line, f"alias *{event.anchor} refers to a value that contains it",
                                  "write the value out instead of the alias")
            self._add(size, line)
            return node
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise YamlRefused(line, f"values nested more than {MAX_DEPTH} levels deep",
                              "flatten the structure; no rulebook entry needs this depth")
        start = self._total
        self._add(1, line)
        node = super().compose_node(parent, index)  # type: ignore[misc]
        self._depth -= 1
        if event.anchor is not None:
            self._sizes[id(node)] = self._total - start
        return node

    def _add(self, count: int, line: int) -> None:
        self._total += count
        if self._total > MAX_NODES:
            raise YamlRefused(line, f"more than {MAX_NODES} values once aliases are expanded (an alias bomb?)",
                              "write the values out; use aliases (*name) sparingly")


class _BoundedPyYamlLoader(BoundedComposing, yaml.SafeLoader):  # type: ignore[misc]
    """PyYAML's safe loader, counting (its composer is the pure-Python one: libyaml's
    composer cannot be told to count)."""

    def _peek(self) -> Any:
        return self.peek_event()


def compose_bounded(text: str) -> Any:
    """The node graph of ``text`` as MkDocs' loader composes it (PyYAML, tags such as
    ``!ENV`` kept as written, no code run), within the bounds; None for an empty text.

    Raises :class:`YamlRefused` past a bound, and PyYAML's own errors for bad syntax."""
    loader = _BoundedPyYamlLoader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()
