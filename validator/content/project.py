"""The project file, ``rulebook.yml``: where the content is and which languages to build.

Keeping this out of the engine's code is what lets another community point the
engine at its own rules, rules core and languages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from babel import Locale, UnknownLocaleError
from babel.units import UnknownUnitError, get_unit_name
from pydantic import Field

from validator.content.model import Id, Node, Text
from validator.content.yamlsource import read_yaml, validate
from validator.problems import Problem, ProblemsFound
from validator.ruleset import Ruleset, load_ruleset

PROJECT_FILE = "rulebook.yml"


Width = Literal["narrow", "short", "long"]
"""How a length is written, as CLDR names its forms: ``2″``, ``2 in``, ``2 inches``."""


class Language(Node):
    code: Id
    name: Text
    length_unit: Id | None = None
    """The unit this language's site shows distances in (a CLDR length unit such as
    ``centimeter``); the book's own unit when not given."""
    length_width: Width | None = None
    """How this language writes a length (the book's ``length_width`` when not given)."""


class Project(Node):
    title: Text
    source_language: Id
    languages: tuple[Language, ...] = Field(min_length=1)
    ruleset: Text
    length_unit: Id | None = None
    """The unit of length the rules give distances in (``{dist:2}``), a CLDR length
    unit (``inch``, ``centimeter``): a book without distances needs none."""
    length_width: Width = "short"
    content_dir: Text = "docs"
    locales_dir: Text = "locales"
    mkdocs_config: Text = "mkdocs.yml"

    def language(self, code: str) -> Language:
        return next(language for language in self.languages if language.code == code)

    def shown_unit(self, language: Language) -> str | None:
        """The unit of length ``language``'s site shows distances in."""
        return language.length_unit or self.length_unit

    def shown_width(self, language: Language) -> Width:
        return language.length_width or self.length_width

    @property
    def translated_languages(self) -> tuple[Language, ...]:
        return tuple(language for language in self.languages if language.code != self.source_language)


RESERVED_FOLDERS = frozenset({"api"})
"""Folders of the built site beside the language sites (the open data), which no
language's site may take the place of."""


def load_project(root: Path) -> Project:
    path = root / PROJECT_FILE
    if not path.exists():
        raise ProblemsFound([Problem(PROJECT_FILE, 0, "", f"no {PROJECT_FILE} in {root}",
                                     "run the command from the project folder or pass --project DIR")])
    project = validate(Project, read_yaml(path, PROJECT_FILE), PROJECT_FILE)
    codes = [language.code for language in project.languages]
    first: dict[str, int] = {}
    for language in project.languages:
        if language.code in first:
            raise ProblemsFound([Problem(PROJECT_FILE, language.position.line, "",
                                         f"language '{language.code}' is listed twice (first at line "
                                         f"{first[language.code]})",
                                         "list each language once; one site is built per entry")])
        if language.code in RESERVED_FOLDERS:
            raise ProblemsFound([Problem(PROJECT_FILE, language.position.line, "",
                                         f"language code '{language.code}' is the name of a folder the build "
                                         "writes beside the language sites",
                                         "use the language's ISO code, such as 'de' or 'pt'")])
        try:
            Locale.parse(language.code)
        except (ValueError, UnknownLocaleError) as error:  # the pages name languages and write numbers with Babel
            raise ProblemsFound([Problem(PROJECT_FILE, language.position.line, "",
                                         f"language code '{language.code}' is not a locale Babel knows ({error})",
                                         "use the language's ISO 639 code, one Babel knows, such as 'de' "
                                         "or 'pt'")]) from None
        unit_problem = _length_unit_problem(language.length_unit or project.length_unit, language.code)
        if unit_problem:
            line = language.position.of("length_unit").line if language.length_unit else \
                project.position.of("length_unit").line
            raise ProblemsFound([Problem(PROJECT_FILE, line, "", unit_problem,
                                         "name a CLDR length unit, such as 'inch', 'centimeter' or 'meter'")])
        first[language.code] = language.position.line
    if project.source_language not in codes:
        raise ProblemsFound([Problem(PROJECT_FILE, project.position.of("source_language").line, "",
                                     f"source language '{project.source_language}' is not among the languages",
                                     f"add it to 'languages' or choose one of {', '.join(codes)}")])
    return project


def _length_unit_problem(unit: str | None, code: str) -> str:
    """Why a language cannot write lengths in ``unit`` ("" when it can): the names and
    patterns of units come from CLDR, whatever the unit and the language."""
    if unit is None:
        return ""
    try:
        get_unit_name(f"length-{unit}", locale=code)
    except UnknownUnitError:
        return f"'{unit}' is not a unit of length CLDR knows for '{code}'"
    return ""


def rules_core_problem(project: Project, why: str) -> Problem:
    """Why the rules core named in ``rulebook.yml`` cannot be used, at its line there."""
    return Problem(PROJECT_FILE, project.position.of("ruleset").line, "",
                   f"cannot load the rules core '{project.ruleset}' ({why})",
                   "name an importable module:attribute holding a Ruleset (a package in the book's folder "
                   "or an installed one)")


def load_rules_core(root: Path, project: Project) -> Ruleset:
    """The book's rules core, imported from the installed packages or the book's folder.

    Importing it runs the book's code, whose faults are its own: any exception it raises
    is one problem naming the module, not a fault of the engine."""
    try:
        return load_ruleset(project.ruleset, root)
    except Exception as error:
        raise ProblemsFound([rules_core_problem(project, f"{type(error).__name__}: {error}")]) from None
