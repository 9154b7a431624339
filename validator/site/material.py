"""The words of Material for MkDocs' own parts of a page, in the site's language.

Material translates its interface (the search box's placeholder, "Back to top", the
header's labels) from the language of ``theme.language``, for the languages it
ships; a language it does not ship would stop its templates (they import the
language's file by name), so the build names Material's nearest language instead
(``es-AR`` reads ``es``, one it has nothing for reads English), while the page keeps
the site's own ``lang`` (``overrides/partials/language.html``).  What Material leaves
in English whatever the language (the tooltip of the permalink beside each heading,
which Python-Markdown's ``toc`` writes; "Made with" in the footer; the page not
found) comes from the engine's interface catalogue, handed to the templates in
``config.extra.interface``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]
from babel.messages.catalog import Catalog
from mkdocs.utils import get_theme_dir

from validator.catalogs.po import interface_translations
from validator.site.markdown import inert

FALLBACK = "en"
"""Material's language for a site language it has no words for: its own default."""


def material_languages() -> dict[str, str]:
    """The languages Material ships words for, by lower-case code (``pt-br``) to the
    name of its file (``pt-BR``)."""
    folder = Path(get_theme_dir("material")) / "partials" / "languages"
    return {path.stem.lower(): path.stem for path in folder.glob("*.html")}


def material_language(code: str) -> str:
    """The language Material shows its words in on the site of ``code``: the same, else
    the language without its region or script, else :data:`FALLBACK`.

    >>> material_language("pl"), material_language("pt_BR"), material_language("es-AR")
    ('pl', 'pt-BR', 'es')
    >>> material_language("gd")  # Scottish Gaelic: not one of Material's
    'en'
    """
    known = material_languages()
    wanted = code.replace("_", "-").lower()
    for candidate in (wanted, wanted.split("-")[0]):
        if candidate in known:
            return known[candidate]
    return FALLBACK


def interface_words(catalog: Catalog | None, code: str) -> dict[str, str]:
    """What the site's overrides of Material's templates say in the site's language
    (``config.extra.interface``): text, which the templates escape, made :func:`inert`
    as Material shows titles as tooltips, decoded into markup."""
    gettext = interface_translations(catalog).gettext
    return {
        "material_language": material_language(code),
        # Translators: The heading of the page a reader reaches by following
        # a link to a page that does not exist (an error 404).
        "not_found": inert(gettext("Page not found")),
        # Translators: On the page not found, the link to the home page of
        # the site in the reader's language.
        "home": inert(gettext("Go to the home page")),
        # Translators: At the foot of every page, before the name of the
        # program that made the site's look, "Material for MkDocs", which
        # follows as a link and is not translated.
        "made_with": inert(gettext("Made with")),
    }


def permalink_title(catalog: Catalog | None) -> str:
    """The tooltip of the permalink beside each heading, in the site's language."""
    # Translators: The tooltip of the small link beside every heading, which
    # leads to that heading: a reader copies it to point others at that part
    # of the page.
    return inert(interface_translations(catalog).gettext("Permanent link"))


def with_permalink_title(extensions: Any | None, title: str) -> Any:
    """The ``markdown_extensions`` of a language's configuration: those the book's
    ``mkdocs.yml`` gives (``extensions``, its composed YAML node, see
    :func:`validator.content.mkdocs_config.inherited_option`), with ``title`` as the
    ``toc`` extension's ``permalink_title``, unless the book sets one itself.

    A language's configuration that names ``markdown_extensions`` replaces the
    inherited list whole, so the book's list is carried over node by node, each
    extension's options and tags as written, the ``toc`` entry alone changed."""
    option = (_scalar("permalink_title"), _scalar(title))
    if isinstance(extensions, yaml.MappingNode):
        pairs = list(extensions.value)
        for index, (key, value) in enumerate(pairs):
            if isinstance(key, yaml.ScalarNode) and key.value == "toc":
                pairs[index] = (key, _with_option(value, option))
                return yaml.MappingNode(extensions.tag, pairs, flow_style=False)
        return yaml.MappingNode(extensions.tag, [*pairs, (_scalar("toc"), _mapping([option]))], flow_style=False)
    items = list(extensions.value) if isinstance(extensions, yaml.SequenceNode) else []
    for index, item in enumerate(items):
        if isinstance(item, yaml.ScalarNode) and item.value == "toc":
            items[index] = _mapping([(_scalar("toc"), _mapping([option]))])
            break
        if isinstance(item, yaml.MappingNode) and [key.value for key, _ in item.value] == ["toc"]:
            items[index] = _mapping([(item.value[0][0], _with_option(item.value[0][1], option))])
            break
    else:
        items.append(_mapping([(_scalar("toc"), _mapping([option]))]))
    return yaml.SequenceNode("tag:yaml.org,2002:seq", items, flow_style=False)


def _with_option(options: Any, option: tuple[Any, Any]) -> Any:
    """An extension's options (a mapping node, or none written) with ``option`` added,
    unless they already set it."""
    if not isinstance(options, yaml.MappingNode):
        return _mapping([option])
    if any(isinstance(key, yaml.ScalarNode) and key.value == option[0].value for key, _ in options.value):
        return options
    return yaml.MappingNode(options.tag, [*options.value, option], flow_style=False)


def _scalar(text: str) -> Any:
    return yaml.ScalarNode("tag:yaml.org,2002:str", text)


def _mapping(pairs: list[tuple[Any, Any]]) -> Any:
    return yaml.MappingNode("tag:yaml.org,2002:map", pairs, flow_style=False)
