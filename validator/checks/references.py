"""Reference integrity: every token, citation and discrepancy points at something.

A link that resolves to nothing is caught here, before rendering, so the
renderers may assume that every ``{rule:...}`` and ``{term:...}`` has a target.
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.api.ruleset import Ruleset
from validator.checks.charts import chart_problems
from validator.checks.rulescore import RulesCore
from validator.content.loader import Rulebook
from validator.content.model import Message
from validator.content.tokens import Literal, Token, split
from validator.problems import Problem


def subject_of(context: str) -> str:
    return context.split("#", 1)[0]


def token_problems(rulebook: Rulebook, message: Message) -> Iterator[Problem]:
    """The problems of the tokens of a text, at its position (made only for a text
    that has a problem)."""
    text = message.text
    if "{" not in text and "}" not in text:
        return  # most texts: nothing to split (a check after an edit walks every text again)
    problems = list(_piece_problems(rulebook, split(text)))
    if problems:
        position, subject = message.position, subject_of(message.context)
        for why, fix in problems:
            yield Problem(position.file, position.line, subject, why, fix)


def _piece_problems(rulebook: Rulebook, pieces: tuple[Literal | Token, ...]) -> Iterator[tuple[str, str]]:
    """(what is wrong, how to fix it) for each bad token among ``pieces``."""
    rule_ids = rulebook.rule_names  # built once per rulebook, not once per message
    if any(isinstance(piece, Literal) and ("{" in piece.text or "}" in piece.text) for piece in pieces):
        yield "a brace is not part of a valid {kind:argument} token", "close the token or remove the brace"
    for token in pieces:
        if not isinstance(token, Token):
            continue
        syntax = token.problem()
        if syntax:
            yield syntax, "use {rule:id}, {term:id}, {roll:5+}, {dice:2D8}, {dist:2} or {dist:2D8}"
        elif token.kind == "rule" and token.argument not in rule_ids:
            yield (f"{token.source} links to an unknown rule",
                   "use the id of an existing rule (or one of its aliases)")
        elif token.kind == "term" and token.argument not in rulebook.term_ids:
            yield (f"{token.source} links to an unknown glossary term",
                   "add the term to docs/glossary.yml or correct the id")


def reference_problems(rulebook: Rulebook, core: Ruleset | RulesCore) -> Iterator[Problem]:
    """Every token, citation and discrepancy that points at nothing; every scenario
    of the rules ``core`` naming a rule the rulebook lacks; every bad chart."""
    core = RulesCore.of(core)
    for message in rulebook.messages():
        yield from token_problems(rulebook, message)
    source_ids = {source.id for source in rulebook.sources.sources}
    rule_ids = rulebook.rule_names
    for rule in rulebook.rules:
        for citation in rule.cite:
            if citation.source not in source_ids:
                yield Problem(citation.position.file, citation.position.of("source").line, rule.id,
                              f"cites unknown source '{citation.source}'", "add it to docs/sources.yml")
    ruleset_line = rulebook.project.position.of("ruleset")
    for scenario, implemented in core.facts.scenarios:
        for rule_id in implemented:
            if rule_id not in rule_ids:
                yield Problem(ruleset_line.file, ruleset_line.line, rule_id,
                              f"scenario '{scenario}' implements rule '{rule_id}', which the rulebook lacks",
                              "correct the id in the core's @implements(...) or add the rule")
    for entry in rulebook.discrepancies.discrepancies:
        where = entry.position
        for rule_id in entry.rules:
            if rule_id not in rule_ids:
                yield Problem(where.file, where.of("rules").line, entry.id,
                              f"touches unknown rule '{rule_id}'", "use the id of an existing rule")
        reading_ids = [reading.id for reading in entry.readings]
        if entry.readings and entry.status == "adopted" and entry.adopted not in reading_ids:
            yield Problem(where.file, where.of("adopted").line, entry.id,
                          f"adopted reading '{entry.adopted}' is not one of its readings",
                          f"choose one of {', '.join(reading_ids)}")
        for reading in entry.readings:
            if reading.source not in source_ids:
                yield Problem(reading.position.file, reading.position.of("source").line, entry.id,
                              f"reading '{reading.id}' cites unknown source '{reading.source}'",
                              "add it to docs/sources.yml")
            if reading.variant is not None and reading.variant not in core.facts.variants:
                known = ", ".join(core.facts.variants) or "none"
                yield Problem(reading.position.file, reading.position.of("variant").line, entry.id,
                              f"reading '{reading.id}' names unknown ruling variant '{reading.variant}'",
                              f"use a variant of the rules core ({known})")
    yield from chart_problems(rulebook, core)
    yield from example_scenario_problems(rulebook, core)


def example_scenario_problems(rulebook: Rulebook, core: RulesCore) -> Iterator[Problem]:
    """Every example whose scenario implements none of the rules it sits under.

    An example shows how its rule plays out; computed by a scenario that applies other
    rules, its outcome proves nothing about the rule above it, while the page says it
    does.  An official answer's example must apply one of the rules the answer touches.
    An unknown scenario is left to the example's run, which names the close ones."""
    implemented = dict(core.facts.scenarios)
    holders = [(rule.id, {rule.id, *rule.aliases}, rule.examples, "this rule") for rule in rulebook.rules]
    holders += [(entry.subject, set(entry.rules), entry.examples,
                 f"any rule the answer touches ({', '.join(entry.rules)})") for entry in rulebook.faq.faq]
    for subject, accepted, examples, wanted in holders:
        for example in examples:
            rule_ids = implemented.get(example.scenario)
            if rule_ids is None or accepted & set(rule_ids):
                continue
            yield Problem(example.position.file, example.position.of("scenario").line, subject,
                          f"example '{example.id}': scenario '{example.scenario}' implements "
                          f"{', '.join(rule_ids) or 'no rule'} but not {wanted}",
                          "move the example under a rule the scenario implements, or add the rule's id to "
                          "@implements(...) of the core function that applies it")
