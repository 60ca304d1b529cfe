"""``python3 tasks.py demo`` works where a newcomer runs it: a fresh clone, where out/ does not exist."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT, require_shared


def _tracked_files() -> list[str]:
    """The files git tracks in this checkout (what a clone gets); skips outside a git checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [name for name in listing.stdout.decode("utf-8").split("\0") if name]


def _installed_kg() -> Path:
    """The ``kg`` console script of the environment running the tests (no re-install in the copy)."""
    script = Path(sys.executable).parent / ("kg.exe" if sys.platform == "win32" else "kg")
    if not script.exists():
        pytest.skip("no kg console script beside this Python")
    return script


@pytest.mark.slow
def test_demo_commands_run_in_a_fresh_copy_of_the_tracked_files(tmp_path):
    clone = tmp_path / "clone"
    for name in _tracked_files():
        if (ROOT / name).is_file():  # a file deleted but not yet committed is not in a clone either
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    assert not (clone / "out").exists()
    spec = importlib.util.spec_from_file_location("fresh_tasks", clone / "tasks.py")
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    kg = _installed_kg()
    for args in tasks.DEMO:
        result = subprocess.run([str(kg), *args], cwd=clone, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, f"kg {' '.join(args)}: {result.stderr}"
    assert result.stdout.startswith("performer")  # the last command: the performances query's table
    assert "<html" in (clone / "out" / "graph.html").read_text(encoding="utf-8").lower()
    assert "@prefix schema:" in (clone / "out" / "graph.ttl").read_text(encoding="utf-8")


def test_ci_refuses_to_run_without_the_shared_folder(tmp_path):
    """CI without ../shared would skip every test on real news and still pass."""
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    shutil.copy2(ROOT / ".ci" / "run", repo / ".ci" / "run")
    assert not (tmp_path / "shared").exists()
    done = subprocess.run(["bash", str(repo / ".ci" / "run")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "../shared" in done.stderr


def test_a_missing_shared_file_skips_a_clone_and_fails_ci(monkeypatch):
    monkeypatch.delenv("KG_REQUIRE_SHARED", raising=False)
    with pytest.raises(pytest.skip.Exception):
        require_shared("no-such-folder")
    monkeypatch.setenv("KG_REQUIRE_SHARED", "1")
    with pytest.raises(pytest.fail.Exception, match="KG_REQUIRE_SHARED=1"):
        require_shared("no-such-folder")
