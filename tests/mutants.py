"""The mutation run: switch each sieve off in turn and check that a test fails.

A sieve no test depends on can break, or be deleted, with the suite still passing; naming its id
in a test (``tests/extract/test_sieves.py``) does not prove the test holds it to a decision.
Here each sieve's decisions are taken away where its stage hands them on: a work, event or
performance it decided is dropped, a place or context it gave is left open, a quotation it
gave a speaker is left unattributed (one left without is dropped), an exception it raised lets the title through. Then the
fast extraction tests run; a mutant that none of them notices *survives*, and the run fails.

``python -m tests.mutants`` runs every sieve (two at a time, one process each) and prints one
line per sieve; ``python -m tests.mutants --off RULE [pytest args]`` runs the tests with one
sieve switched off. The stages are not changed for this: their public functions are wrapped
in this process only.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest

#: The fast tests that hold the sieves to their decisions (the real-news floors are left out:
#: a sieve must be caught by a test of its own kind, not only by a score).
TESTS = ("tests/extract", "tests/test_seed.py", "tests/test_eval_dev.py")

#: Where each stage hands its decisions on: ``module:function``.
_STAGE_OUTPUTS = (
    "kg.extract.works.extract:extract_works",
    "kg.extract.events.extract:extract_events",
    "kg.extract.events.scene:read_scene",
    "kg.extract.quotes.extract:extract_quotes",
    "kg.extract.performances.extract:extract_performances",
)
#: The performance exceptions answer with the id of the one that holds.
_EXCEPTIONS = "kg.extract.performances.exceptions:not_performed"


def _without(fact: Any, rule: str, unattributed: str) -> Any:
    """``fact`` with what ``rule`` decided taken away, or None when the rule made the fact."""
    if getattr(fact, "location_rule", None) == rule:
        fact = replace(fact, location=None, location_rule=None)
    if getattr(fact, "context_rule", None) == rule:
        fact = replace(fact, event=None, location=None, date=None, context_rule=None)
    if getattr(fact, "rule", None) != rule:
        return fact
    if hasattr(fact, "speaker") and rule != unattributed:  # a quotation stays, with no one to say it
        return replace(fact, speaker=None, rule=unattributed)
    return None  # (a quotation left with no speaker is no longer kept)


def _filtered(out: Any, rule: str, unattributed: str) -> Any:
    """A stage's output (a tuple of facts, or of facts and the scene) without ``rule``'s decisions."""
    if isinstance(out, tuple) and len(out) == 2 and hasattr(out[1], "show"):
        events, scene = out
        kept = tuple(_filtered(events, rule, unattributed))
        if scene.show is not None and scene.show not in {e.key for e in kept}:
            scene = replace(scene, show=None)
        return kept, scene
    return tuple(f for f in (_without(fact, rule, unattributed) for fact in out) if f is not None)


def _resolve(path: str) -> Callable[..., Any]:
    """The function ``module:function`` names."""
    module_name, name = path.split(":")
    return getattr(importlib.import_module(module_name), name)


def _rebind(original: Callable[..., Any], wrapper: Callable[..., Any]) -> None:
    """Put ``wrapper`` wherever kg's modules hold ``original`` (imported by name or not)."""
    for name, module in list(sys.modules.items()):
        if name == "kg" or name.startswith("kg."):
            for attr, value in list(vars(module).items()):
                if value is original:
                    setattr(module, attr, wrapper)


def switch_off(rule: str) -> None:
    """Take ``rule``'s decisions away from every stage, in this process."""
    importlib.import_module("kg.nlp.factories")
    from kg.extract.catalog import stages
    from kg.extract.quotes.extract import UNATTRIBUTED

    if rule not in {s.id for _, sieves in stages() for s in sieves}:
        raise SystemExit(f"no sieve {rule!r} in the stage tables")
    for path in _STAGE_OUTPUTS:
        stage = _resolve(path)
        _rebind(stage, _wrap_stage(stage, rule, UNATTRIBUTED.id))
    asked = _resolve(_EXCEPTIONS)
    _rebind(asked, _wrap_exceptions(asked, rule))


def _wrap_stage(stage: Callable[..., Any], rule: str, unattributed: str) -> Callable[..., Any]:
    def mutant(*args: Any, **kwargs: Any) -> Any:
        return _filtered(stage(*args, **kwargs), rule, unattributed)

    return mutant


def _wrap_exceptions(asked: Callable[..., str | None], rule: str) -> Callable[..., str | None]:
    def mutant(*args: Any) -> str | None:
        found = asked(*args)
        return None if found == rule else found

    return mutant


def _sieve_ids() -> Iterator[str]:
    from kg.extract.catalog import stages

    for _, sieves in stages():
        yield from (s.id for s in sieves)


def _run_one(rule: str) -> tuple[str, bool]:
    """Whether the tests catch ``rule`` switched off (pytest exits 1 when a test fails)."""
    code = subprocess.call([sys.executable, "-m", "tests.mutants", "--off", rule, "-x", "-q", "-p", "no:cacheprovider",
                            *TESTS], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if code not in (0, 1):
        raise SystemExit(f"the tests with {rule} switched off stopped with exit code {code}")
    return rule, code == 1


def main(argv: list[str]) -> int:
    if argv[:1] == ["--off"] and len(argv) > 1:
        switch_off(argv[1])
        return int(pytest.main(argv[2:]))
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_run_one, _sieve_ids()))
    for rule, caught in results:
        print(f"{'caught' if caught else 'SURVIVED'}  {rule}", flush=True)
    survivors = [rule for rule, caught in results if not caught]
    print(f"{len(results) - len(survivors)} of {len(results)} sieves switched off made a test fail", flush=True)
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
