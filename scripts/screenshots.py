"""Screenshots of the key pages of every language's site, for the README.

    python scripts/screenshots.py                      # builds the sites, writes screenshots/*.png
    python scripts/screenshots.py --site site          # uses sites already built there
    python scripts/screenshots.py --languages en --pages chapter --sizes phone --out /tmp/shots

Each page is shown in a desktop window (1280 x 800) and on a phone (390 x 844), at
one device pixel per CSS pixel, in Debian's Chromium driven by Playwright, served
from a local port.  The pictures are as repeatable as a browser allows: fixed
windows, no animations or transitions, no text caret or scroll bars, the site's
own local fonts (it loads no web fonts), and sites built with SOURCE_DATE_EPOCH
from the last commit.  They are written as `<page>-<language>-<size>.png`; at one
pixel per CSS pixel a page is 40 to 140 kB (Chromium's own PNG encoding, which
a lossless re-encoding in Python made no smaller).

Bad usage is one line and exit status 2; a site that cannot be built, exit 1.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--font-render-hinting=none"]
STILL = ("*, *::before, *::after { transition: none !important; animation: none !important; "
         "caret-color: transparent !important; scroll-behavior: auto !important; }")


@dataclass(frozen=True)
class Shot:
    """A key page: its file in each language's site, and what to bring into view."""

    name: str
    file: str
    focus: str = ""


PAGES = {
    "home": Shot("home", "index.html"),
    # A chapter, from its first rule, whose worked example follows its text.
    "chapter": Shot("chapter", "monstrous-mounts.html", ".md-content h2[id]"),
    "parallel": Shot("parallel", "parallel-monstrous-mounts.html", ".parallel"),
    "glossary": Shot("glossary", "glossary.html"),
    "register": Shot("register", "discrepancies.html"),
}
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
LANGUAGES = ("en", "es", "pl")

# Bring the first element matching the selector to the top, below the sticky header.
SCROLL = """(selector) => {
  const target = selector && document.querySelector(selector);
  if (!target) { return false; }
  const header = document.querySelector(".md-header");
  const top = target.getBoundingClientRect().top + window.scrollY - (header ? header.offsetHeight : 0) - 16;
  window.scrollTo(0, Math.max(0, top));
  return true;
}"""


class UsageError(Exception):
    """Bad usage: one line, exit status 2."""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def served(directory: Path) -> Iterator[str]:
    """The folder on a free loopback port, for as long as the block runs."""
    handler = functools.partial(_Quiet, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def build(target: Path) -> None:
    """Build the bundled rulebook into ``target``, dated by the last commit when there is one."""
    env = dict(os.environ)
    if "SOURCE_DATE_EPOCH" not in env:
        stamp = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True)
        if stamp.returncode == 0 and stamp.stdout.strip():
            env["SOURCE_DATE_EPOCH"] = stamp.stdout.strip()
    done = subprocess.run([sys.executable, "-m", "validator", "build", "--site-dir", str(target)], cwd=ROOT,
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit(1)


def take(site: Path, out: Path, languages: Sequence[str], pages: Sequence[str], sizes: Sequence[str]) -> list[Path]:
    """Screenshot every page in every language and size; the paths written."""
    from playwright.sync_api import sync_playwright

    written: list[Path] = []
    out.mkdir(parents=True, exist_ok=True)
    with served(site) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for size in sizes:
            width, height = SIZES[size]
            context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1,
                                          reduced_motion="reduce", color_scheme="light",
                                          is_mobile=size == "phone", has_touch=size == "phone")
            page = context.new_page()
            for language in languages:
                for name in pages:
                    shot = PAGES[name]
                    page.goto(f"{server}/{language}/{shot.file}")
                    page.add_style_tag(content=STILL)
                    page.evaluate("() => document.fonts.ready")
                    page.evaluate(SCROLL, shot.focus)
                    page.mouse.move(0, 0)
                    path = out / f"{name}-{language}-{size}.png"
                    page.screenshot(path=str(path), animations="disabled", caret="hide")
                    written.append(path)
            context.close()
        browser.close()
    return written


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="screenshots.py", description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="sites already built (by default: build them first)")
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots", help="folder for the PNG files")
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES), metavar="CODE")
    parser.add_argument("--pages", nargs="+", default=list(PAGES), choices=list(PAGES))
    parser.add_argument("--sizes", nargs="+", default=list(SIZES), choices=list(SIZES))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    try:
        if not Path(CHROMIUM).exists():
            raise UsageError(f"{CHROMIUM}: Chromium is not installed. Fix: apt-get install chromium")
        with tempfile.TemporaryDirectory(prefix="screenshots-") as scratch:
            site = arguments.site
            if site is None:
                site = Path(scratch) / "site"
                build(site)
            for language in arguments.languages:
                if not (site / language / "index.html").is_file():
                    raise UsageError(f"{site / language}: no built site for language '{language}'. "
                                     "Fix: build it with `validator build --site-dir DIR` and pass --site DIR")
            for path in take(site, arguments.out, arguments.languages, arguments.pages, arguments.sizes):
                print(path)
    except UsageError as error:
        print(f"screenshots.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
