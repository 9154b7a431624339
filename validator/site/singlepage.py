"""Pages passed through MkDocs one at a time, each as MkDocs' whole build makes it.

MkDocs can build only a whole site.  The preview after an edit (:mod:`validator.site.live`)
and an incremental build (:mod:`validator.site.incremental`) need single pages: this
module gathers once what MkDocs' build gathers before it renders any page (the
configuration, the files over placeholder pages, the navigation, the theme), then
renders each page given with MkDocs' own page functions and the theme's templates.
"""

from __future__ import annotations

import html
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from mkdocs.commands.build import _build_page, _populate_page
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files, get_files
from mkdocs.structure.nav import Navigation, get_navigation

from validator.content.mkdocs_config import mkdocs_warnings
from validator.site.build import config_text, load_site_config, mkdocs_config
from validator.site.pages import NavItem, navigation
from validator.workspace import Workspace


@dataclass
class SinglePages:
    """One language's MkDocs state: what a build gathers before it renders any page
    (configuration, files, navigation, theme), kept in memory to render pages one by one."""

    config: MkDocsConfig
    files: Files
    nav: Navigation
    env: object
    docs: Path

    @classmethod
    def prepare(cls, workspace: Workspace, code: str, folder: Path) -> SinglePages:
        """The state of ``code``'s site, over placeholder pages: a page is read only
        when it is rebuilt, and the navigation carries every title."""
        docs, output = folder / "docs", folder / "site"
        docs.mkdir(parents=True)
        output.mkdir()
        for _title, page in _nav_pages(navigation(workspace, code)):
            (docs / page).write_text("", encoding="utf-8")
        config_path = folder / "mkdocs.yml"
        config_path.write_text(config_text(mkdocs_config(workspace, code, docs, output)), encoding="utf-8")
        with mkdocs_warnings():
            config = load_site_config(config_path)
            config = config.plugins.on_config(config)
            files = get_files(config)
            env = config.theme.get_env()
            files.add_files_from_theme(env, config)
            nav = get_navigation(files, config)
        return cls(config, files, nav, env, docs)

    def retitle(self, workspace: Workspace, code: str) -> None:
        """Give the kept navigation the titles of ``workspace`` (a chapter renamed)."""
        for title, page in _nav_pages(navigation(workspace, code)):
            file = self.files.get_file_from_path(page)
            if file is not None and file.page is not None:
                file.page.title = html.escape(title)  # as the build's configuration escapes it

    def render(self, page_name: str, markdown: str, served: Path) -> None:
        """Render one page with MkDocs and put it in place of the served one."""
        (self.docs / page_name).write_text(markdown, encoding="utf-8")
        file = self.files.get_file_from_path(page_name)
        if file is None or file.page is None:
            raise KeyError(page_name)
        with mkdocs_warnings():
            _populate_page(file.page, self.config, self.files)
            _build_page(file.page, self.config, self.files.documentation_pages(), self.nav,
                        self.env)  # type: ignore[arg-type]
        built = Path(file.abs_dest_path)
        target = served / file.dest_uri
        fresh = target.with_name(f".{target.name}.new-{os.getpid()}")
        shutil.copyfile(built, fresh)
        os.replace(fresh, target)
        # The page's HTML is on disk; MkDocs keeps no copy it would need again.
        file.page.content = None
        file.page.markdown = None


def _nav_pages(nav: list[NavItem]) -> list[tuple[str, str]]:
    pages: list[tuple[str, str]] = []
    for title, entry in nav:
        pages.extend(_nav_pages(entry) if isinstance(entry, list) else [(title, entry)])
    return pages
