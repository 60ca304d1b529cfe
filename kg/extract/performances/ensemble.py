"""The company of a concert piece: the orchestra plays what its soloist or conductor is said to.

A review of a classical concert says "Zimerman's Brahms", "the soloist Leon Mc Cawley stepped out
for the Schumann Piano Concerto", "Blunier led a gleaming Concerto for Orchestra": one name for a
performance the whole stage gives. Where the article names one ensemble ("the RTÉ National
Symphony Orchestra"), that ensemble plays every piece of concert music anyone performs in it, and
so does each person the article calls its conductor.
"""

from __future__ import annotations

from dataclasses import replace

from kg.extract.model import Entity, Performance, Work
from kg.extract.sieves import sieve
from kg.extract.text.lexicon import words
from kg.extract.text.marks import ENSEMBLE_ENDS

ENSEMBLE = sieve("perf.ensemble", "the one ensemble of a concert review, and its conductor, for a piece of concert "
                 "music someone is said to perform", "The soloist Ana Rivera played Schumann's Piano Concerto with "
                 "the Brindle Symphony Orchestra. → Brindle Symphony Orchestra too", 0.7)
SIEVES = (ENSEMBLE,)

#: Forms of concert music ("Concerto", "Symphony", "Sonata"): a title holding one is concert music.
_FORMS = words("concert_forms")
#: The musician noun of the one who leads an orchestra.
_CONDUCTOR = "conductor"


def with_ensemble(performances: list[Performance], works: tuple[Work, ...],
                  entities: tuple[Entity, ...]) -> list[Performance]:
    """The performances, with the article's one ensemble and its conductors added to each
    performance of a piece of concert music (placed as that performance is)."""
    ensembles = [e for e in entities if e.kind == "group" and e.name.split()[-1] in ENSEMBLE_ENDS]
    if len(ensembles) != 1:
        return performances
    company = [ensembles[0], *(e for e in entities if e.kind == "person"
                               and any(_CONDUCTOR in d.lower().split() for d in e.descriptions))]
    pieces = {w.key for w in works if any(word in _FORMS for word in w.title.split())}
    taken = {(p.performer, p.work) for p in performances}
    added: list[Performance] = []
    for p in performances:
        if p.work not in pieces:
            continue
        for entity in company:
            if (entity.key, p.work) not in taken:
                taken.add((entity.key, p.work))
                added.append(replace(p, performer=entity.key, rule=ENSEMBLE.id, confidence=ENSEMBLE.confidence))
    return [*performances, *added]
