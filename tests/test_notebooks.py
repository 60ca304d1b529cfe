"""Every notebook in notebooks/ runs top to bottom in a real Jupyter kernel, and is committed clean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_there_is_a_walkthrough():
    assert "walkthrough.ipynb" in {path.name for path in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_committed_without_outputs(path: Path):
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, "a notebook with no code"
    # outputs and counts in git are noise in every diff, and can leak a machine's paths
    assert [i for i, cell in enumerate(code) if cell.outputs] == []
    assert [i for i, cell in enumerate(code) if cell.execution_count is not None] == []


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_top_to_bottom(path: Path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()  # raises CellExecutionError, naming the cell, on the first failure
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    html = "\n".join(out.get("data", {}).get("text/html", "") for out in outputs)
    assert html.count("<iframe srcdoc=") == 1  # the network drew inline, once: each page carries ~0.9 MB of script
    size = sum(len(json.dumps(cell.outputs)) for cell in notebook.cells if cell.cell_type == "code")
    assert size < 1_300_000, f"the executed notebook's outputs weigh {size:,} characters"
    assert "kg KnowledgeGraph" in html  # the graph showed its summary table
    assert any("image/png" in out.get("data", {}) for out in outputs)  # the static picture
