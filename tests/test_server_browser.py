"""kg serve's query page in headless Chromium: it runs a query, shows a table, and shows hostile text as text.

The server runs in this process (workers are still separate processes); the page
may load nothing but what the server itself sends, so it is proven to work offline.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import kg
from kg import queries
from kg.server import ServerConfig, SparqlServer, make_server


def _load_browser_helpers() -> Any:
    """tests/browser.py, loaded by path (``--import-mode=importlib`` puts no test folder on sys.path)."""
    spec = importlib.util.spec_from_file_location("kg_tests_browser", Path(__file__).with_name("browser.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_browser = _load_browser_helpers()
chromium = _browser.chromium  # the shared module-scoped headless chromium fixture

HOSTILE = "<script>alert('x')</script>"

ARTICLE = f"""Harbor Lights Festival opens in Lisbon

The singer Mara Quill will perform her song "Salt Road" at the Harbor Lights Festival in Lisbon on Friday.

"I wrote it on a night ferry," Quill said.

"Never trust a page that shows {HOSTILE} as code," Quill added.
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, nlp: Any) -> Iterator[SparqlServer]:
    folder = tmp_path_factory.mktemp("page")
    (folder / "harbor.txt").write_text(ARTICLE, encoding="utf-8")
    graph = kg.build([folder / "harbor.txt"], nlp=nlp)
    graph.save(folder / "graph.ttl")
    server = make_server(str(folder / "graph.ttl"), ServerConfig(port=0, workers=2, timeout=5, quiet=True))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.close()


@pytest.fixture
def page(chromium: Any, server: SparqlServer) -> Iterator[Any]:
    """A page that may reach the server and nothing else; ``kg_blocked``, ``kg_dialogs``, ``kg_errors`` record the rest."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.kg_blocked, page.kg_dialogs, page.kg_errors = [], [], []

    def route(request_route: Any) -> None:
        # the server is the only origin the page may use
        if request_route.request.url.startswith(server.url):
            request_route.continue_()
        else:
            page.kg_blocked.append(request_route.request.url)
            request_route.abort()

    page.route("**/*", route)
    page.on("dialog", lambda dialog: (page.kg_dialogs.append(dialog.message), dialog.dismiss()))
    page.on("console", lambda message: message.type == "error" and page.kg_errors.append(message.text))
    page.on("pageerror", lambda error: page.kg_errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()


def test_page_runs_a_named_query_and_shows_hostile_text_as_text(page: Any, server: SparqlServer) -> None:
    page.goto(server.url)
    buttons = page.locator("#examples button")
    buttons.first.wait_for()
    assert buttons.all_text_contents() == queries.names()
    page.get_by_role("button", name="quotes", exact=True).click()
    assert page.locator("#query").input_value() == queries.load("quotes")
    page.locator("#run").click()
    page.locator("#results tbody tr").first.wait_for()

    headers = page.locator("#results th").all_text_contents()
    assert headers[:2] == ["speaker", "text"]
    rows = [row.locator("td").all_text_contents()[:2] for row in page.locator("#results tbody tr").all()]
    assert ["Mara Quill", "I wrote it on a night ferry,"] in rows
    assert ["Mara Quill", f"Never trust a page that shows {HOSTILE} as code,"] in rows
    # the hostile quotation is a text node: no element, no script run
    assert page.locator("#results script").count() == 0
    assert page.kg_dialogs == []
    assert "row" in page.locator("#status").text_content()
    assert page.kg_blocked == [] and page.kg_errors == []


def test_page_shows_graphs_and_refusals(page: Any, server: SparqlServer) -> None:
    page.goto(server.url)
    page.locator("#examples button").first.wait_for()
    page.locator("#query").fill(
        "PREFIX schema: <https://schema.org/>\nCONSTRUCT { ?p schema:name ?n } WHERE { ?p a schema:Person ; schema:name ?n }"
    )
    page.locator("#query").press("Control+Enter")
    page.locator("#text").wait_for()
    assert '"Mara Quill"' in page.locator("#text").text_content()

    page.locator("#query").fill("DROP ALL")
    page.locator("#run").click()
    page.locator("#error").wait_for()
    assert "403" in page.locator("#error").text_content() and "read-only" in page.locator("#error").text_content()
    assert page.locator("#table-wrap").is_hidden()
    assert page.kg_blocked == [] and page.kg_dialogs == []
