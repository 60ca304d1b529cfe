"""The sieve registry: unique ids, confidences in range, and documentation that matches the code."""

from __future__ import annotations

import pytest

from kg.extract import catalog
from kg.extract.sieves import Sieve, markdown, registered, sieve

from ..conftest import ROOT


def test_docs_list_the_sieves_the_code_runs():
    docs = (ROOT / "docs" / "extraction.md").read_text(encoding="utf-8")
    assert catalog.section() in docs, "docs/extraction.md is stale: run python -m kg.extract.catalog"


def test_every_stage_sieve_is_registered_once_and_documented():
    listed = [s.id for _, sieves in catalog.stages() for s in sieves]
    assert len(listed) == len(set(listed))
    assert set(listed) <= set(registered())
    assert {"quote.cue-name", "quote.unattributed", "perf.subject", "perf.not-made", "context.scene",
            "event.scene"} <= set(listed)


def test_every_declared_sieve_is_in_its_stage_table():
    """One table per stage, and no sieve outside them: what the docs list is all that runs."""
    listed = {s.id for _, sieves in catalog.stages() for s in sieves}
    assert set(registered()) - {"test.pipe"} == listed


def test_a_sieve_id_cannot_be_declared_twice():
    with pytest.raises(ValueError, match="declared twice"):
        sieve("quote.cue-name", "anything", "anything", 0.5)


def test_a_confidence_outside_zero_one_is_refused():
    with pytest.raises(ValueError, match="not in"):
        Sieve("test.bad", "nothing", "none", 1.5)


def test_the_table_escapes_pipes_in_cells():
    text = markdown([("Stage", (Sieve("test.pipe", "a | b", "x", 0.5),))])
    assert "a \\| b" in text and "| 1 | `test.pipe` |" in text


#: Tests that list sieves without holding any to a decision: naming an id here proves nothing.
_REGISTRY_TESTS = {"test_sieves.py", "test_mutants.py"}


def test_every_sieve_is_named_by_a_test_of_its_decision():
    """A sieve no test names can be switched off with the whole suite still passing."""
    named = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "tests").rglob("*.py")
                      if path.name not in _REGISTRY_TESTS)
    unnamed = [s.id for _, sieves in catalog.stages() for s in sieves
               if f'"{s.id}"' not in named and f"'{s.id}'" not in named]
    assert unnamed == []
