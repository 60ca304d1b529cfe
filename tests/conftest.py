"""Shared fixtures: the real pipeline (loaded once), the shared dev data when present."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kg.extract.model import Facts
from kg.io.article import Article

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def nlp():
    """kg's full pipeline on the default small English model."""
    from kg.nlp import load_pipeline

    return load_pipeline()


@pytest.fixture(scope="session")
def run(nlp):
    """Extract the facts of one text: ``run(text, published=None) -> Facts``."""
    from kg.nlp import extract

    def _run(text: str, published: str | None = None) -> Facts:
        article = Article(id="test", text=text, published=published)
        return next(extract(nlp, [article]))[1]

    return _run


def require_shared(*parts: str) -> Path:
    """``../shared/<parts>``, skipping the test when it is absent (a fresh clone has no
    ../shared), or failing under ``KG_REQUIRE_SHARED=1``: CI must score real text, and a
    skip there would hide a loss on it."""
    path = SHARED.joinpath(*parts)
    if path.exists():
        return path
    message = f"{path} is not beside this checkout"
    if os.environ.get("KG_REQUIRE_SHARED") == "1":
        pytest.fail(f"{message} (KG_REQUIRE_SHARED=1)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the checkout: see :func:`require_shared`."""
    return require_shared()
