"""Headless Chromium for page tests: Debian's /usr/bin/chromium driven by Playwright, offline.

tests/conftest.py does not load it; a test module imports the fixtures it uses
(``from .browser import browser_page, chromium``, both names: one needs the other):

    chromium      one headless browser per test module;
    browser_page  a fresh page per test; every request that is not ``file:``,
                  ``data:``, ``blob:`` or ``about:`` is aborted and recorded in
                  ``page.kg_blocked``, so a test proves the page works offline.

Without chromium or playwright the fixture skips, unless ``KG_REQUIRE_BROWSER=1``
(CI sets it), when it fails: a browser test that silently skips in CI proves nothing.

:func:`launch` and :func:`offline_page` are the one place that says how Chromium is
started and cut off from the network: ``benchmarks/viz_5000.py`` imports them too,
so the benchmark measures the page the tests check.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: Debian's chromium; Playwright's own downloaded browsers are not used.
CHROMIUM = os.environ.get("KG_CHROMIUM", "/usr/bin/chromium")

#: Flags for a quiet, sandbox-free, network-free headless run (containers have no user namespaces).
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)

_LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")


def require_browser() -> None:
    """Skip (or fail under ``KG_REQUIRE_BROWSER=1``) when chromium or playwright is missing."""
    missing = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright Python package")
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        missing.append(CHROMIUM)
    if not missing:
        return
    message = f"browser test needs {' and '.join(missing)}"
    # CI must run these tests: a skip there would hide a broken page
    if os.environ.get("KG_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{message} (KG_REQUIRE_BROWSER=1)")
    pytest.skip(message)


def launch(playwright: Any) -> Any:
    """Start headless chromium with :data:`CHROMIUM_ARGS`."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=list(CHROMIUM_ARGS))


def offline_page(browser: Any, **context_options: Any) -> Any:
    """A page in a fresh context whose non-local requests are aborted and listed in ``kg_blocked``."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    blocked: list[str] = []

    def _route(route: Any) -> None:
        url = route.request.url
        # local content is the page itself; anything else would mean the page needs a network
        if url.startswith(_LOCAL_SCHEMES):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    page.route("**/*", _route)
    page.kg_blocked = blocked
    return page


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless chromium per test module (starting it costs about a second)."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def browser_page(chromium: Any) -> Iterator[Any]:
    """A fresh offline page (1280x800) in its own context; closed after the test."""
    page = offline_page(chromium, viewport={"width": 1280, "height": 800})
    try:
        yield page
    finally:
        page.context.close()
