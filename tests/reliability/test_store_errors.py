"""How a store folder that cannot be opened is reported (the races around it are in test_crash.py)."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from kg.errors import GraphError
from kg.graph import KnowledgeGraph

# Seen for real: a reader opening DIR during the first milliseconds of `kg build --store DIR`
# gets "Invalid argument: Column family not found: spog", "IO error: No such file or directory"
# or "Inserts are only possible on read-write instances".
_HALF_MADE = RuntimeError("Invalid argument: Column family not found: spog")


def test_a_store_still_half_made_is_a_graph_error(tmp_path, monkeypatch):
    store = tmp_path / "store"
    KnowledgeGraph.open(store, create=True).close()

    def half_made(path: str) -> ox.Store:
        raise _HALF_MADE

    monkeypatch.setattr(ox.Store, "read_only", staticmethod(half_made))
    with pytest.raises(GraphError) as refused:
        KnowledgeGraph.open(store, read_only=True)
    message = str(refused.value)
    assert message.startswith(f"{store}: cannot open the store (half made: ") and "\n" not in message
    assert message.endswith("Column family not found: spog")


def test_a_reader_waits_for_a_store_being_created(tmp_path, monkeypatch):
    store = tmp_path / "store"
    KnowledgeGraph.open(store, create=True).close()
    real, failures = ox.Store.read_only, [_HALF_MADE, FileNotFoundError("IO error: No such file or directory")]

    def being_made(path: str) -> ox.Store:
        # The first tries land while the other process is still making the store.
        if failures:
            raise failures.pop()
        return real(path)

    monkeypatch.setattr(ox.Store, "read_only", staticmethod(being_made))
    with KnowledgeGraph.open(store, read_only=True) as graph:
        assert graph.stats()["articles"] == 0
    assert not failures
