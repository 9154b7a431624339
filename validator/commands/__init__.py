"""The commands, one module each, as MkDocs keeps its own in ``mkdocs/commands/``.

Each module says what its command takes (``add_arguments``) and does it (``run``,
given the project folder and the parsed arguments, returning the exit status); it
imports what the command needs at its top.  :data:`COMMANDS` names them with the
line ``validator --help`` shows, so that the command line can be parsed knowing the
commands' names alone, and only the module of the command given is imported
(see :mod:`validator.cli`): a ``validator scenarios`` never loads MkDocs.
"""

from __future__ import annotations

from typing import NamedTuple


class Command(NamedTuple):
    """A command: its name, the module of this package that holds it, its help line."""

    name: str
    module: str
    summary: str


COMMANDS: tuple[Command, ...] = (
    Command("init", "init", "write a small working book into a new folder, to start from"),
    Command("check", "check", "verify the rulebook, its worked examples and catalogues"),
    Command("status", "status", "translated, fuzzy and untranslated messages per language and chapter"),
    Command("lint", "lint", "run the translation lint alone (it is also part of check)"),
    Command("scenarios", "scenarios", "list every scenario the rules core answers"),
    Command("i18n", "i18n", "translation catalogues"),
    Command("glossary-tbx", "glossary", "write one language's glossary as TBX, for translators' terminology tools "
            "(every build also writes it beside the open data)"),
    Command("calc", "calc", "compute a scenario's outcome from given input"),
    Command("build", "build", "check, then build one site per language"),
    Command("assemble", "assemble", "one site from the language sites of build --language jobs"),
    Command("serve", "serve", "live preview that rebuilds when a YAML or .po file changes"),
)
"""Every command, in the order ``validator --help`` lists them."""
