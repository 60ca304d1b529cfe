"""The coreference scores of ``benchmarks/coref_gum.py`` on hand-worked examples."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def coref_gum():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("coref_gum", BENCHMARKS / "coref_gum.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules["coref_gum"] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("coref_gum", None)
        sys.path.remove(str(BENCHMARKS))


def test_muc_and_b_cubed_on_a_worked_example(coref_gum) -> None:  # type: ignore[no-untyped-def]
    # One mention of the first entity joined the second: MUC loses one link each way,
    # B³ gives a, b 2/3 and c 1/3 of recall, c 1/3 and d, e 2/3 of precision.
    key = [{"a", "b", "c"}, {"d", "e"}]
    response = [{"a", "b"}, {"c", "d", "e"}]
    assert coref_gum.muc(key, response) == (2.0, 3.0, 2.0, 3.0)
    r_num, r_den, p_num, p_den = coref_gum.b_cubed(key, response)
    assert (round(r_num / r_den, 4), round(p_num / p_den, 4)) == (0.7333, 0.7333)


def test_a_mention_missing_from_the_response_costs_recall_only(coref_gum) -> None:  # type: ignore[no-untyped-def]
    assert coref_gum.muc([{1, 2, 3}], [{1, 2}]) == (1.0, 2.0, 1.0, 1.0)
    assert coref_gum.b_cubed([{1, 2, 3}], [{1, 2}])[:2] == pytest.approx((4 / 3, 3.0))


def test_doctests(coref_gum) -> None:  # type: ignore[no-untyped-def]
    assert doctest.testmod(coref_gum).failed == 0
