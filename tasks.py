#!/usr/bin/env python3
"""Set-up and everyday tasks, needing nothing but python3 (3.10+).

    python3 tasks.py demo     # install into .venv, build the demo graph and page from examples/
    python3 tasks.py test     # install into .venv (with test extras), run the whole test suite
    python3 tasks.py mutate   # switch each extraction sieve off in turn; fail if no test notices

Extra arguments after ``test`` go to pytest (``python3 tasks.py test -m "not slow"``).
"""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if sys.platform == "win32" else "bin")
STAMP = VENV / ".installed"


def run(*cmd: str | Path) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    code = subprocess.call([str(c) for c in cmd], cwd=ROOT)
    if code:
        sys.exit(code)


def install() -> None:
    """Create .venv and install kg with its test extras, again only when pyproject.toml changed."""
    if sys.version_info < (3, 10):
        sys.exit(f"kg needs Python 3.10 or newer, this is {sys.version.split()[0]}")
    pyproject = ROOT / "pyproject.toml"
    if STAMP.exists() and STAMP.stat().st_mtime >= pyproject.stat().st_mtime:
        return
    if not (BIN / "python").exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    run(BIN / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(BIN / "python", "-m", "pip", "install", "--quiet", "-e", ".[test]")
    STAMP.touch()


#: The demo's kg commands, run from the checkout's root. A test runs them in a fresh copy
#: of the tracked files (where out/ does not exist yet), so the demo cannot break unseen.
DEMO: tuple[tuple[str, ...], ...] = (
    ("build", "examples/", "-o", "out/graph.ttl"),
    ("viz", "out/graph.ttl", "-o", "out/graph.html"),
    ("query", "out/graph.ttl", "--named", "performances"),
)


def demo() -> None:
    install()
    for args in DEMO:
        run(BIN / "kg", *args)


def test(args: list[str]) -> None:
    install()
    code = subprocess.call([str(BIN / "python"), "-m", "pytest", *args], cwd=ROOT)
    if code == 5:
        print("pytest collected no tests: that is a failure here", file=sys.stderr)
    sys.exit(code)


def mutate() -> None:
    install()
    sys.exit(subprocess.call([str(BIN / "python"), "-m", "tests.mutants"], cwd=ROOT))


if __name__ == "__main__":
    task, rest = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if task == "demo":
        demo()
    elif task == "test":
        test(rest)
    elif task == "mutate":
        mutate()
    else:
        sys.exit(__doc__)
