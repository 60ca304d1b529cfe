"""Shared fixtures: the real pipeline (loaded once), the shared dev data when present."""

from __future__ import annotations

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


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the checkout; tests that need it skip when it is absent."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED
