"""Synthetic rulebooks of any size, made from the bundled one.

    python benchmarks/generate.py OUT --rules N [--source DIR]

Each chapter of the source project is copied under a new chapter id
(``monstrous-mounts`` becomes ``monstrous-mounts-x2``, ``-x3``, ...) with every
rule id, ``{rule:...}`` token and catalogue context inside it renamed the same
way, until the book holds at least ``N`` rules.  The catalogues get the copied
entries with their translations, so every language stays complete, and the
result passes ``validator check`` as the source does: its worked examples,
tokens, glossary and lint are those of real rules.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("rulebook.yml", "mkdocs.yml")
CHAPTER_ID = re.compile(r"^chapter:\s*\n\s+id:\s*(?P<id>[a-z0-9-]+)\s*$", re.MULTILINE)
ORDER = re.compile(r"^(?P<indent>\s+)order:\s*(?P<order>\d+)\s*$", re.MULTILINE)
RULE_LINE = re.compile(r"^  - id: ", re.MULTILINE)


def renamer(chapter_id: str, copy_id: str) -> Callable[[str], str]:
    """A function renaming ``chapter_id`` to ``copy_id`` wherever it names the
    chapter or one of its rules (``chapter/`` or ``chapter#``), and nowhere else."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(chapter_id)}(?=[/#])")
    return lambda text: pattern.sub(copy_id, text)


def chapter_files(project: Path) -> list[tuple[Path, str, int]]:
    """(file, chapter id, number of rules) of every chapter of ``project``."""
    found = []
    for path in sorted((project / "docs" / "rules").glob("*.yml")):
        text = path.read_text(encoding="utf-8")
        match = CHAPTER_ID.search(text)
        if match is None:
            raise SystemExit(f"{path}: no 'chapter: id:' found")
        found.append((path, match["id"], len(RULE_LINE.findall(text))))
    return found


def copy_chapter(text: str, chapter_id: str, copy_id: str, order_offset: int) -> str:
    """The chapter's YAML under ``copy_id``, ordered after the originals."""
    renamed = renamer(chapter_id, copy_id)(text)
    renamed = CHAPTER_ID.sub(lambda m: m.group(0).replace(m["id"], copy_id), renamed, count=1)
    return ORDER.sub(lambda m: f"{m['indent']}order: {int(m['order']) + order_offset}", renamed, count=1)


def copy_messages(catalog: Catalog, copies: list[tuple[str, str, str]]) -> None:
    """Add to ``catalog`` a renamed copy of every entry of each copied chapter."""
    originals = list(catalog)
    for chapter_id, copy_id, file_name in copies:
        rename = renamer(chapter_id, copy_id)
        prefixes = (f"{chapter_id}/", f"{chapter_id}#")
        for message in originals:
            context = str(message.context or "")
            if not message.id or not context.startswith(prefixes):
                continue
            catalog.add(
                rename(str(message.id)), rename(str(message.string)) if message.string else "",
                locations=[(f"docs/rules/{file_name}", line) for _, line in message.locations],
                flags=message.flags, auto_comments=message.auto_comments, user_comments=message.user_comments,
                previous_id=message.previous_id, context=rename(context),
            )


def generate(out: Path, rules: int, source: Path = ROOT) -> int:
    """Write a project of at least ``rules`` rules to ``out`` (absent or empty); returns its rule count."""
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"{out}: not empty; give a new folder")
    out.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        shutil.copy2(source / name, out / name)
    shutil.copytree(source / "docs", out / "docs")
    shutil.copytree(source / "locales", out / "locales")
    chapters = chapter_files(source)
    total = sum(count for _, _, count in chapters)
    copies: list[tuple[str, str, str]] = []
    round_ = 1
    while total < rules:
        round_ += 1
        for path, chapter_id, count in chapters:
            if total >= rules:
                break
            copy_id = f"{chapter_id}-x{round_}"
            file_name = f"{copy_id}.yml"
            text = path.read_text(encoding="utf-8")
            (out / "docs" / "rules" / file_name).write_text(
                copy_chapter(text, chapter_id, copy_id, 1000 * round_), encoding="utf-8")
            copies.append((chapter_id, copy_id, file_name))
            total += count
    _cite_copies(out, [copy_id for _chapter_id, copy_id, _file in copies])
    for po in sorted((out / "locales").glob("*/LC_MESSAGES/rules.po")):
        with po.open("rb") as handle:
            catalog = read_po(handle)
        copy_messages(catalog, copies)
        with po.open("wb") as handle:
            write_po(handle, catalog, width=76, include_previous=True)
    return total


CORE_MODULE = "copiedcore"
CORE_SOURCE = '''"""The book's rules core, each scenario also citing the copies of its rules.

Written by benchmarks/generate.py: a copied chapter's examples sit under rules of
new ids, which ``validator check`` requires the scenario to implement."""

import dataclasses

from validator.api import Ruleset, Scenario, implements
from {module} import {attribute} as ORIGINAL

COPIES = {copies!r}


def _with_copies(scenario: Scenario) -> Scenario:
    ids = [f"{{copy}}/{{rule_id.split('/', 1)[1]}}" for rule_id in scenario.rule_ids for copy in COPIES
           if copy.rsplit("-x", 1)[0] == rule_id.split("/", 1)[0]]
    if not ids:
        return scenario

    @implements(*ids)
    def copied_rules() -> None:
        """The copies of the rules the scenario applies (never called)."""

    return dataclasses.replace(scenario, implementation=(*scenario.implementations, copied_rules))


RULESET = Ruleset(tuple(_with_copies(scenario) for scenario in ORIGINAL.scenarios), ORIGINAL.variants,
                  ORIGINAL.adopted)
'''


def _cite_copies(out: Path, copy_ids: list[str]) -> None:
    """Point the generated book at a core that also cites the copied rules (see :data:`CORE_SOURCE`)."""
    rulebook = (out / "rulebook.yml").read_text(encoding="utf-8")
    match = re.search(r"^ruleset: *(?P<module>[\w.]+):(?P<attribute>\w+) *$", rulebook, re.MULTILINE)
    if match is None:
        raise SystemExit(f"{out / 'rulebook.yml'}: no 'ruleset: module:attribute' line found")
    (out / f"{CORE_MODULE}.py").write_text(
        CORE_SOURCE.format(module=match["module"], attribute=match["attribute"], copies=copy_ids), encoding="utf-8")
    (out / "rulebook.yml").write_text(
        rulebook[:match.start()] + f"ruleset: {CORE_MODULE}:RULESET" + rulebook[match.end():], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--rules", type=int, required=True)
    parser.add_argument("--source", type=Path, default=ROOT)
    arguments = parser.parse_args(argv)
    total = generate(arguments.out, arguments.rules, arguments.source)
    print(f"{arguments.out}: {total} rules", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
