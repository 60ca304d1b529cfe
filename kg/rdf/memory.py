"""rdflib's in-memory store, taking a whole article's triples in one pass.

An in-memory build spends most of its mapping time in rdflib's ``Memory.add``: per
triple it dispatches an event nobody listens to, names the context again and walks
three indexes through general code. :class:`BulkMemory` is the same store (the same
indexes, read by the same rdflib code) whose ``addN`` fills them in one loop, with the
context named once per run of quads in the same graph. Where anything has subscribed
to the store's events, ``addN`` adds triple by triple as rdflib does, so they all fire.

It writes the private indexes of rdflib's ``Memory`` (rdflib 7, which ``pyproject.toml``
pins); ``tests/rdf/test_memory.py`` holds it to the very store plain ``Memory.add`` makes.
"""

from __future__ import annotations

from collections.abc import Iterable

from rdflib.graph import _QuadType
from rdflib.plugins.stores.memory import Memory

__all__ = ["BulkMemory"]


class BulkMemory(Memory):
    """rdflib's ``Memory`` store with an ``addN`` that indexes many quads in one loop."""

    def addN(self, quads: Iterable[_QuadType]) -> None:  # noqa: N802 (rdflib's name)
        """Add ``(s, p, o, graph)`` quads, none of them quoted, as ``Memory.add`` would one by one."""
        if self.dispatcher.get_map():
            # Someone listens for added triples: let rdflib tell them of each.
            super().addN(quads)
            return
        spo, pos, osp = self._Memory__spo, self._Memory__pos, self._Memory__osp  # type: ignore[attr-defined]
        other_contexts = self._Memory__tripleContexts  # type: ignore[attr-defined]
        by_context = self._Memory__contextTriples  # type: ignore[attr-defined]
        in_default = by_context[None]
        last = name = members = None
        for s, p, o, context in quads:
            if context is not last:
                last = context
                name = self._Memory__ctx_to_str(context)  # type: ignore[attr-defined]
                self._Memory__all_contexts.add(context)  # type: ignore[attr-defined]
                members = by_context.setdefault(name, set())
            triple = (s, p, o)
            objects = spo.setdefault(s, {}).setdefault(p, {})
            # Memory keeps a triple's contexts only where they differ from the first triple's.
            default = self._Memory__defaultContexts  # type: ignore[attr-defined]
            if o in objects:
                contexts = other_contexts.get(triple)
                if contexts is None:
                    contexts = other_contexts[triple] = default.copy()
                contexts[name] = False
                contexts[None] = False
                if contexts == default:
                    del other_contexts[triple]
            else:
                objects[o] = 1
                pos.setdefault(p, {}).setdefault(o, {})[s] = 1
                osp.setdefault(o, {}).setdefault(s, {})[p] = 1
                contexts = {name: False, None: False}
                if default is None:
                    self._Memory__defaultContexts = contexts  # type: ignore[attr-defined]
                elif contexts != default:
                    other_contexts[triple] = contexts
            in_default.add(triple)
            members.add(triple)  # type: ignore[union-attr]
