"""The translation lint of a whole workspace, in parts: the English text, then each
translated language's catalogues, each part in a process of its own.

Each part's findings are kept between runs twice over (see :mod:`validator.resultcache`):
in pieces (a catalogue's message by message, see :func:`validator.checks.lint.lint_catalog`;
the English text's YAML file by YAML file, see :func:`validator.checks.lint.source_findings`),
and whole, by every file and fact the part reads.  An edit that leaves a part's files alone costs the part
nothing; an edit of English texts costs a language only its messages whose English
changed; so does an edit of a few entries of a rule catalogue, read by patching its
earlier reading (see :class:`validator.workspace.CatalogEdit`), the entries it changed.
Any other edit of a catalogue relints, message by message, the parts that read it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import partial

from babel.messages.catalog import Catalog

from validator import resultcache
from validator.api.labels import LABELS_DOMAIN
from validator.catalogs.po import RULES_DOMAIN, UI_DOMAIN, catalog_path
from validator.checks.handwritten import missing_guide_findings
from validator.checks.lint import (
    Finding,
    LintContext,
    blocking_findings,
    lint_catalog,
    message_findings,
    source_findings,
)
from validator.content.tokens import tokens
from validator.derived import derived
from validator.parallel import Job, run_jobs
from validator.problems import Problem
from validator.store import Store
from validator.workspace import Workspace

SOURCE_PART = ""
"""The part of :func:`lint_part` that is the English text itself."""


def lint_workspace(workspace: Workspace, parallel: bool = False, language: str | None = None,
                   store: Store | None = None) -> list[Finding]:
    """Lint the English text, then every catalogue of every translated language, from
    what ``store`` kept where it can; ``parallel``: each part that must be linted anew
    in a process of its own, as many as the store's workers; ``language``: that
    language's catalogues alone, what its translators act on."""
    store = store or Store()
    chosen = [part for part in lint_parts(workspace) if language is None or part == language]
    parts = {part: _Part.of(workspace, part) for part in chosen}
    # A part kept whole, or kept but for the messages an edit touched, costs less than
    # starting a process: only the others start one.
    kept = {part: _kept_findings(workspace, state, store) for part, state in parts.items()}
    missing = [part for part, findings in kept.items() if findings is None]

    jobs = [Job(f"lint of {part or 'the English text'}", partial(_linted_anew, workspace, parts[part], store))
            for part in missing]
    made = ((job.work() for job in jobs) if not parallel
            else (findings for _job, findings in run_jobs(jobs, store.workers)))
    found = [*(findings for findings in kept.values() if findings is not None), *made]
    project = workspace.project
    found.append(missing_guide_findings(workspace.root, project.content_dir, project.source_language,
                                        tuple(part for part in chosen if part != SOURCE_PART)))
    return sorted(finding for findings in found for finding in findings)


def lint_parts(workspace: Workspace) -> list[str]:
    """The English text, then each translated language: the lint's parts, of even size."""
    return [SOURCE_PART, *(language.code for language in workspace.project.translated_languages)]


def lint_part(workspace: Workspace, part: str, store: Store) -> list[Finding]:
    """The findings of one part (see :func:`lint_parts`), from what earlier runs kept
    in ``store`` where they can be."""
    state = _Part.of(workspace, part)
    findings = _kept_findings(workspace, state, store)
    return findings if findings is not None else _linted_anew(workspace, state, store)


def _kept_findings(workspace: Workspace, state: _Part, store: Store) -> list[Finding] | None:
    """The part's findings kept whole by an earlier run, brought up to date when an
    edit touched only some of its messages (and kept whole again); None when the
    part must be linted anew."""
    earlier = state.earlier(store)
    findings = state.unchanged(earlier)
    if findings is not None:
        return findings
    findings = state.updated(workspace, earlier)
    if findings is not None:
        _keep_whole(state, findings, store)
    return findings


def _linted_anew(workspace: Workspace, state: _Part, store: Store) -> list[Finding]:
    """The findings of every message of the part, each from what earlier runs kept of it where they can be."""
    kept = store.bucket(state.bucket)
    findings = state.findings(workspace, kept)
    if kept is not None:
        kept.save()  # here: the part may run in a process of its own
    _keep_whole(state, findings, store)
    return findings


def _keep_whole(state: _Part, findings: list[Finding], store: Store) -> None:
    whole = store.bucket(state.whole_bucket) if state.key is not None else None
    if whole is not None:
        whole.hold(resultcache.digest(state.key), (state.english, tuple(findings), state.rules_digest))
        whole.save()


@dataclass(frozen=True)
class _Part:
    """One part, with what its whole findings are kept by."""

    name: str
    contexts: tuple[LintContext, LintContext] | None
    """A language's: what its rule catalogue's checks consult, what its others' do."""
    key: object | None
    """The files the part reads and the facts the checks consult, but the English texts
    in force and a language's rule catalogue; None when a file it reads was not read
    whole by the load (nothing is kept whole then)."""
    english: dict[str, str | None]
    """A language's: each rule message's context -> the English text in force."""
    rules_file: str = ""
    rules_digest: bytes | None = None
    """A language's: the digest of its rule catalogue's bytes."""

    @property
    def bucket(self) -> str:
        return f"lint-{self.name or 'source'}"

    @property
    def whole_bucket(self) -> str:
        return f"{self.bucket}-whole"

    @classmethod
    def of(cls, workspace: Workspace, part: str) -> _Part:
        digests = workspace.readings.input_digests
        rulebook = workspace.rulebook
        if part == SOURCE_PART:
            # Every YAML file of the rulebook: texts, positions, silencing comments.
            files = sorted(shown for shown in digests if not shown.endswith(".po"))
            english_key = LintContext.of(rulebook, rulebook.project.source_language, {}, {}).key
            whole = {message.file for message in rulebook.messages()} <= set(files)
            kept_by = (part, english_key, [(shown, digests[shown]) for shown in files]) if whole else None
            return cls(part, None, kept_by, {})
        contexts = _language_contexts(workspace, part)
        locales = workspace.root / workspace.project.locales_dir
        files = [workspace.shown(catalog_path(locales, part, domain))
                 for domain in (RULES_DOMAIN, UI_DOMAIN, LABELS_DOMAIN)]
        files += [shown for shown, _catalog in workspace.readings.ui_sources.get(part, ()) if shown not in files]
        rules, plain = contexts
        key = (part, rules.key, plain.key, [(shown, digests.get(shown)) for shown in files[1:]])
        english = {context: rules.current_english.get(context)
                   for context in workspace.readings.rule_catalogs.contexts(part)}
        return cls(part, contexts, key if files[0] in digests else None, english, files[0], digests.get(files[0]))

    def earlier(self, store: Store) -> object | None:
        """What an earlier run kept of the whole part, if its files and facts were the same."""
        return None if self.key is None else store.peek(self.whole_bucket, (self.key,))

    def unchanged(self, earlier: object) -> list[Finding] | None:
        """The kept findings, when the English texts and the rule catalogue they were
        made with are those in force."""
        if isinstance(earlier, tuple) and len(earlier) == 3 and earlier[0] == self.english \
                and earlier[2] == self.rules_digest:
            return list(earlier[1])
        return None

    def updated(self, workspace: Workspace, earlier: object) -> list[Finding] | None:
        """The kept findings of a language whose catalogues are as they were, or whose
        rule catalogue was read by patching the reading they were made with, with the
        messages whose English text or entry changed since linted again (and the others'
        findings at their lines now); None when that cannot be."""
        if self.contexts is None or not isinstance(earlier, tuple) or len(earlier) != 3:
            return None
        made_with, findings, catalog_digest = earlier
        if not isinstance(made_with, dict) or made_with.keys() != self.english.keys():
            return None
        changed = {context for context, text in self.english.items() if made_with[context] != text}
        lines_moved = False
        if catalog_digest != self.rules_digest:
            edit = workspace.readings.catalog_edits.get(self.rules_file)
            if edit is None or edit.since != catalog_digest:
                return None
            changed |= edit.contexts
            lines_moved = edit.lines_moved
        if "" in changed:
            return None  # a message without a context would share its findings with the header's
        catalog = workspace.readings.rule_catalogs[self.name]
        rules = self.contexts[0]
        fresh = [Finding(self.rules_file, message.lineno or 0, str(message.context), *found)
                 for message in catalog if message.id and str(message.context or "") in changed
                 for found in message_findings(message, catalog.num_plurals, rules)]
        still = [finding for finding in findings
                 if not (finding.file == self.rules_file and finding.context in changed)]
        if lines_moved:
            lines = {str(message.context or ""): message.lineno or 0 for message in catalog if message.id}
            if "" in lines:
                return None  # its findings could not be told from the header's
            still = [replace(finding, line=lines[finding.context])
                     if finding.file == self.rules_file and finding.context in lines else finding
                     for finding in still]
        return sorted([*still, *fresh])

    def findings(self, workspace: Workspace, kept: resultcache.Bucket | None) -> list[Finding]:
        """Every finding of the part, each message's from ``kept`` where it was kept."""
        rulebook = workspace.rulebook
        if self.contexts is None:
            return source_findings(rulebook, workspace.root, kept, workspace.readings.input_digests)
        locales = workspace.root / workspace.project.locales_dir
        code = self.name
        rule_context, plain_context = self.contexts
        found = list(lint_catalog(workspace.readings.rule_catalogs[code], self.rules_file, rule_context, kept))
        for shown, ui in workspace.readings.ui_sources.get(code, ()):  # the engine's and the book's
            found.extend(lint_catalog(ui, shown, plain_context, kept))
        labels = workspace.readings.label_catalogs.get(code)
        if labels is not None:
            found.extend(lint_catalog(labels, workspace.shown(catalog_path(locales, code, LABELS_DOMAIN)),
                                      plain_context, kept))
        return found


def blocking_problems(workspace: Workspace) -> list[Problem]:
    """The translations that would stop a page from rendering (see
    :data:`validator.checks.lint.BLOCKING_CHECKS`), as the lint reports them: a build
    runs its lint beside the pages, and looks for these first.  The compact catalogues
    the pages read are searched; a parsed one is asked for (its lines) only where they
    hold a suspect entry."""
    problems: list[Problem] = []
    locales = workspace.root / workspace.project.locales_dir
    for language in workspace.project.translated_languages:
        code = language.code
        # A rule text's translation made for an older English is never shown: its context knows the English in force.
        in_force = LintContext.of(workspace.rulebook, code, {}, _english_in_force(workspace))
        context = LintContext.of(workspace.rulebook, code, {}, {})
        for domain, compact, parsed, checked in (
                (RULES_DOMAIN, workspace.rule_catalogs, workspace.readings.rule_catalogs, in_force),
                (LABELS_DOMAIN, workspace.label_catalogs, workspace.readings.label_catalogs, context)):
            if code in parsed and code in compact and any(_suspect(english, translated)
                                                          for _ctx, english, translated in compact[code].pairs()):
                problems.extend(_blocking(parsed[code], workspace.shown(catalog_path(locales, code, domain)), checked))
        ui = workspace.ui_catalogs.get(code)
        if ui is not None:
            problems.extend(_blocking(ui, workspace.shown(catalog_path(locales, code, UI_DOMAIN)), context))
    return problems


def _suspect(english: str, translated: str) -> bool:
    """Whether a rule or label translation may hold a blocking finding: tokens that differ, a placeholder."""
    if not translated:
        return False

    def kept(text: str) -> Counter[tuple[str, str]]:
        return Counter((token.kind, token.argument) for token in tokens(text))

    return "%(" in english or kept(english) != kept(translated)


def _blocking(catalog: Catalog, shown_as: str, context: LintContext) -> list[Problem]:
    return [Finding(shown_as, message.lineno or 0, str(message.context or ""), *found).as_problem()
            for message in catalog if message.id for found in blocking_findings(message, context)]


def _language_contexts(workspace: Workspace, code: str) -> tuple[LintContext, LintContext]:
    """What the checks of a language's catalogues consult: for its rule catalogue
    (the glossary's translations, the English texts in force), and for the others."""
    rulebook = workspace.rulebook
    current = _english_in_force(workspace)
    rules = workspace.rule_catalogs[code]
    glossary = {term.term: rules.translate(f"glossary/{term.id}#term", term.term).text
                for term in rulebook.glossary.terms
                if rules.translate(f"glossary/{term.id}#term", term.term).language == code}
    return LintContext.of(rulebook, code, glossary, current), LintContext.of(rulebook, code, {}, {})


def _english_in_force(workspace: Workspace) -> dict[str, str]:
    """msgctxt -> the English rule text in force, the same for every language."""
    rulebook = workspace.rulebook
    return derived("english-in-force", rulebook,
                   lambda: {message.context: message.text for message in rulebook.messages()})
