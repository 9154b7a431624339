"""The project file, ``rulebook.yml``: where the content is and which languages to build.

Keeping this out of the engine's code is what lets another community point the
engine at its own rules, rules core and languages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from babel import Locale, UnknownLocaleError, localedata
from pydantic import BeforeValidator, Field, StrictInt, StrictStr

from validator.api.ruleset import Ruleset, load_ruleset
from validator.content.characters import hidden_characters
from validator.content.model import Id, Node, Text
from validator.content.yamlsource import present, read_yaml, validate
from validator.problems import Problem, ProblemsFound

PROJECT_FILE = "rulebook.yml"


Width = Literal["narrow", "short", "long"]
"""How a length is written, as CLDR names its forms: ``2cm``, ``2 cm``, ``2 centimeters``."""


class Language(Node):
    code: Id
    name: Text
    length_unit: Id | None = None
    """The unit this language's site shows distances in (a CLDR length unit such as
    ``centimeter``); the book's own unit when not given."""
    length_width: Width | None = None
    """How this language writes a length (the book's ``length_width`` when not given)."""


def _each_character(value: Any) -> Any:
    """Faces written as one string are one character each (``"abc"`` is three faces)."""
    return list(value) if isinstance(value, str) else value


class Dice(Node):
    """The book's dice: how many sides, the symbol of each face (a die's result is
    shown as its face), and the letter each language writes in ``{dice:3D8}``
    (a German book writes W where English writes D); a language not named keeps the D."""

    sides: StrictInt | None = None
    faces: Annotated[tuple[Text, ...] | None, BeforeValidator(_each_character)] = None
    """One symbol per side, the face showing 1 first: a list, or a string of one character each."""
    notation: dict[Id, StrictStr] = Field(default_factory=dict)

    def face(self, value: int) -> str | None:
        """The symbol of the face showing ``value``; None where the book has none."""
        if self.faces is None or not 1 <= value <= len(self.faces):
            return None
        return self.faces[value - 1]

    def written(self, dice: str, language: str) -> str:
        """A ``{dice:...}`` token's argument as ``language`` writes it.

        >>> Dice(notation={"de": "W"}).written("3D8", "de"), Dice().written("D8", "de")
        ('3W8', 'D8')
        """
        letter = self.notation.get(language)
        return dice.replace("D", letter, 1) if letter else dice


class Limits(Node):
    """The sizes the book's inputs may reach, where the defaults do not fit it (see
    the manual's limits page): each file is still refused while it is read, beyond."""

    input_mib: Annotated[StrictInt, Field(ge=1, le=1024)] | None = None
    """The most MiB of a chapter or any other input but a catalogue (default: 4)."""
    catalogue_mib: Annotated[StrictInt, Field(ge=1, le=4096)] | None = None
    """The most MiB of a catalogue, a template or an XLIFF file (default: 16, or more in
    proportion to the size of the book's YAML files)."""


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
    dice: Dice = Field(default_factory=Dice)
    limits: Limits = Field(default_factory=Limits)
    """The sizes the book's inputs may reach, where the defaults do not fit (see :class:`Limits`)."""

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


PATH_KEYS = ("content_dir", "locales_dir", "mkdocs_config")
"""The keys of ``rulebook.yml`` that name a place: each is read, and ``i18n update``
writes into the locales folder, so none may lead out of the project."""


def _refuse_paths_outside(root: Path, project: Project) -> None:
    """One problem per path key that is absolute or leads out of the project, once
    ``..`` and symbolic links are followed: a clone's rulebook.yml must not make the
    tool read, or overwrite, another folder's files."""
    inside = root.resolve()
    problems = []
    for key in PATH_KEYS:
        value = str(getattr(project, key))
        if Path(value).is_absolute() or not (inside / value).resolve().is_relative_to(inside):
            problems.append(Problem(PROJECT_FILE, project.position.of(key).line, "",
                                    f"'{key}' ({value}) leads outside the project folder",
                                    "give a path inside the project, relative to rulebook.yml (a symbolic link "
                                    "there may not lead out either)"))
    if problems:
        raise ProblemsFound(problems)


def load_project(root: Path) -> Project:
    path = root / PROJECT_FILE
    if not present(path):
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
        hidden = hidden_characters(language.name)
        if hidden:
            raise ProblemsFound([Problem(PROJECT_FILE, language.position.of("name").line, "",
                                         f"the name of language '{language.code}' holds the invisible character "
                                         f"{hidden[0]}",
                                         "remove it: the name is shown as written in the language menu of every "
                                         "page, where it could hide or reorder text")])
        unit_problem = _length_unit_problem(language.length_unit or project.length_unit, language.code)
        if unit_problem:
            line = language.position.of("length_unit").line if language.length_unit else \
                project.position.of("length_unit").line
            raise ProblemsFound([Problem(PROJECT_FILE, line, "", unit_problem,
                                         "name a CLDR length unit, such as 'inch', 'centimeter' or 'meter'")])
        first[language.code] = language.position.line
    book_unit_problem = _length_unit_problem(project.length_unit, project.source_language)
    if book_unit_problem:  # the book's own unit, even where every language names its own
        raise ProblemsFound([Problem(PROJECT_FILE, project.position.of("length_unit").line, "", book_unit_problem,
                                     "name a CLDR length unit, such as 'inch', 'centimeter' or 'meter'")])
    _refuse_paths_outside(root, project)
    dice_problem = _dice_problem(project)
    if dice_problem is not None:
        raise ProblemsFound([dice_problem])
    if project.source_language not in codes:
        raise ProblemsFound([Problem(PROJECT_FILE, project.position.of("source_language").line, "",
                                     f"source language '{project.source_language}' is not among the languages",
                                     f"add it to 'languages' or choose one of {', '.join(codes)}")])
    return project


NOTATION = re.compile(r"^[^\W\d_]+$")
"""A die's letter in a notation: letters only, so that ``3D8`` stays a count, letters, sides."""


def _dice_problem(project: Project) -> Problem | None:
    """What is wrong with the dice the book declares: a notation that is not letters,
    one for a language the book does not have, faces that are not one per side."""
    dice = project.dice
    where = dice.position
    codes = [language.code for language in project.languages]
    for code, letter in dice.notation.items():
        if code not in codes:
            return Problem(PROJECT_FILE, where.of("notation").line, "",
                           f"dice notation for '{code}', which is not among the languages",
                           f"name one of {', '.join(codes)}")
        if not NOTATION.match(letter):
            return Problem(PROJECT_FILE, where.of("notation").line, "",
                           f"dice notation '{letter}' for '{code}' is not letters",
                           "write the letter the language puts between count and sides, such as W for 3W8")
    if dice.sides is not None and dice.sides < 2:
        return Problem(PROJECT_FILE, where.of("sides").line, "", f"'sides: {dice.sides}' is not a die",
                       "give the number of sides of the book's dice, 2 or more")
    if dice.faces is not None and dice.sides is not None and len(dice.faces) != dice.sides:
        return Problem(PROJECT_FILE, where.of("faces").line, "",
                       f"{len(dice.faces)} faces for a die of {dice.sides} sides",
                       "give one symbol per side, the face showing 1 first")
    return None


def _length_unit_problem(unit: str | None, code: str) -> str:
    """Why a language cannot write lengths in ``unit`` ("" when it can): the names and
    patterns of units come from CLDR, whatever the unit and the language.

    Every CLDR locale inherits its units from the root locale, so the root alone says
    whether a language can write the unit; loading each language's whole locale data here
    would be held by every build process for nothing."""
    if unit is None:
        return ""
    if f"length-{unit}" not in localedata.load("root", merge_inherited=False).get("unit_patterns", {}):
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
