"""Tree patterns as data: the spaCy ``DependencyMatcher`` patterns of ``resources/tree_patterns.json``.

A rule that is a shape of the parse (a verb with a subject of a kind, the noun a title hangs
on) is written as a pattern a reader can check against spaCy's documentation and extend
without reading a tree walk; the code keeps what is no shape (which match it prefers, a climb
up the clauses). A pattern's word lists are kg's lexicons, named in the pattern ("@name",
"@name:tag"), so a word is added in one place.

The rules ask whether one token has a shape ("is this title the source of another work?"),
so :func:`matches_at` searches outward from that token, node by node along the pattern's
relations. spaCy's ``DependencyMatcher`` answers the same patterns for a whole Doc (the tests
check that the two agree), but a Doc-wide match, for every pattern and every Doc, cost more
than all the rules that ask.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import lru_cache
from importlib import resources
from operator import attrgetter
from typing import Any

from spacy.tokens import Token

from kg.extract.text.lexicon import tagged, words

_FILE = "tree_patterns.json"
#: A match: each node's RIGHT_ID -> the token it matched.
Match = dict[str, Token]
#: A tree pattern: its nodes in spaCy's format (RIGHT_ID, RIGHT_ATTRS, LEFT_ID, REL_OP).
Tree = list[dict[str, Any]]

#: The token attributes a pattern may test, by their name in spaCy's patterns, each read from the
#: token's ``lower_``, ``lemma_``, ... (``ORTH`` from its text).
_ATTRS: dict[str, Callable[[Token], str]] = {
    name: attrgetter("text" if name == "ORTH" else name.lower() + "_") for name in words("tree_pattern_attrs")
}

#: Per operator, the tokens a node may be given the token of the node it hangs on
#: (``LEFT_ID REL_OP RIGHT_ID``): forward from the left node, and back from the right one.
_FORWARD: dict[str, Callable[[Token], list[Token]]] = {
    ">": lambda a: list(a.children),
    "<": lambda a: [] if a.head.i == a.i else [a.head],
    ">>": lambda a: [t for t in a.subtree if t.i != a.i],
    "<<": lambda a: list(a.ancestors),
    ">--": lambda a: list(a.lefts),
    ">++": lambda a: list(a.rights),
}
_BACK: dict[str, Callable[[Token], list[Token]]] = {
    ">": lambda b: [] if b.head.i == b.i else [b.head],
    "<": lambda b: list(b.children),
    ">>": lambda b: list(b.ancestors),
    "<<": lambda b: [t for t in b.subtree if t.i != b.i],
    ">--": lambda b: [b.head] if b.i < b.head.i else [],
    ">++": lambda b: [b.head] if b.i > b.head.i else [],
}


@lru_cache(maxsize=None)
def tree_patterns() -> dict[str, tuple[list[Tree], str]]:
    """Per pattern name, (its trees with their word lists filled in, what it finds)."""
    return parse(resources.files("kg.extract.resources").joinpath(_FILE).read_text(encoding="utf-8"))


def parse(text: str) -> dict[str, tuple[list[Tree], str]]:
    """The patterns of a pattern file's text; a file that does not say what it is, where it comes
    from and under which licence is refused (as a word list without a header is), and so is a
    relation this module cannot follow."""
    spec = json.loads(text)
    for key in ("about", "source", "licence"):
        if not spec.get(key):
            raise ValueError(f"{_FILE} has no {key!r}: a pattern file says what it is and where it comes from")
    patterns = {name: ([[_filled(node) for node in tree] for tree in entry["trees"]], entry["what"])
                for name, entry in spec["patterns"].items()}
    for name, (trees, _) in patterns.items():
        for node in (n for tree in trees for n in tree):
            if "REL_OP" in node and node["REL_OP"] not in _FORWARD or set(node["RIGHT_ATTRS"]) - set(_ATTRS):
                raise ValueError(f"{_FILE}: pattern {name!r} has a node kg cannot match: {node}")
    return patterns


def _filled(node: Any) -> Any:
    """A pattern node with each "@lexicon" or "@table:tag" string replaced by its sorted entries."""
    if isinstance(node, dict):
        return {key: _filled(value) for key, value in node.items()}
    if isinstance(node, str) and node.startswith("@"):
        name, _, tag = node[1:].partition(":")
        return sorted(tagged(name, tag) if tag else words(name))
    return node


def matches_at(token: Token, name: str, node: str) -> list[Match]:
    """The matches of pattern ``name`` whose node ``node`` is ``token``, in the order of its trees."""
    return [m for tree in _sets(name) if _fits(token, tree, node) for m in _search(tree, {node: token})]


@lru_cache(maxsize=None)
def _sets(name: str) -> list[Tree]:
    """Pattern ``name``'s trees with each IN and NOT_IN list a set, to test a token against."""
    def setted(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: frozenset(v) if key in ("IN", "NOT_IN") else setted(v) for key, v in value.items()}
        return value

    return [[setted(node) for node in tree] for tree in tree_patterns()[name][0]]


def _fits(token: Token, tree: Tree, node: str) -> bool:
    return any(n["RIGHT_ID"] == node and _has(token, n["RIGHT_ATTRS"]) for n in tree)


def _search(tree: Tree, bound: Match) -> Iterator[Match]:
    """Every way to give the tree's other nodes tokens that keep its relations, from ``bound``."""
    step = next((n for n in tree[1:] if (n["LEFT_ID"] in bound) != (n["RIGHT_ID"] in bound)), None)
    if step is None:
        if all(_related(bound, n) for n in tree[1:]):
            yield dict(bound)
        return
    left, right = step["LEFT_ID"], step["RIGHT_ID"]
    if left in bound:
        new, candidates = right, _FORWARD[step["REL_OP"]](bound[left])
    else:
        new, candidates = left, _BACK[step["REL_OP"]](bound[right])
    attrs = next(n["RIGHT_ATTRS"] for n in tree if n["RIGHT_ID"] == new)
    for candidate in candidates:
        if _has(candidate, attrs) and candidate not in bound.values():
            yield from _search(tree, {**bound, new: candidate})


def _related(bound: Match, node: dict[str, Any]) -> bool:
    """Whether a relation between two bound nodes holds (a tree whose relations close a loop)."""
    return bound[node["RIGHT_ID"]] in _FORWARD[node["REL_OP"]](bound[node["LEFT_ID"]])


def _has(token: Token, attrs: dict[str, Any]) -> bool:
    """Whether a token has the attributes of a pattern node (a value, or an IN or NOT_IN list)."""
    for key, want in attrs.items():
        value = _ATTRS[key](token)
        if isinstance(want, dict):
            if "IN" in want and value not in want["IN"] or "NOT_IN" in want and value in want["NOT_IN"]:
                return False
        elif value != want:
            return False
    return True
