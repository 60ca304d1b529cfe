"""The discourse model: what the text is about, sentence by sentence.

Every mention of a person, group, event or place raises its salience; each sentence of
narration halves it; quoted speech does not move the focus on (the speaker stays in focus
while quoted). Whatever asks "who is 'she' here", "who says these uncued words", "which
show is 'the show'" asks :class:`Salience` for the most salient candidate of the right
kind, and gets none when two come too close to call, unless only one of them was the
subject of the sentence before (the centering heuristic: a pronoun continues the last
sentence's subject), or, of two subjects, only one was the subject of the main clause
("X pressed on to make Y answer", "X repeated it, saying Y would ...": X).

Coreference drives one :class:`Salience` as it reads the article; later stages read the
focus it recorded per sentence (:class:`Focus`), so every stage sees one model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")

#: Salience kept from one sentence of narration to the next.
DECAY = 0.5
#: Weight of a mention as subject, as anything else, in a caption or headline, inside a quotation.
W_SUBJECT, W_OTHER, W_CAPTION, W_QUOTED = 2.0, 1.0, 0.3, 0.2
#: Below this a thing is too faint to be what a pronoun or description refers to.
MIN_SALIENCE = 0.25
#: The winner must be this many times as salient as the runner-up.
MARGIN = 1.5


class Salience(Generic[T]):
    """Salience scores with decay, read in text order."""

    def __init__(self) -> None:
        self.score: dict[T, float] = {}
        self._subjects_before: set[T] = set()
        self._subjects_now: set[T] = set()
        self._main_before: set[T] = set()
        self._main_now: set[T] = set()

    def next_sentence(self, narration: bool = True) -> None:
        """Move on one sentence; a sentence that is all quotation keeps the focus where it was."""
        if not narration:
            return
        for thing in self.score:
            self.score[thing] *= DECAY
        self._subjects_before, self._subjects_now = self._subjects_now, set()
        self._main_before, self._main_now = self._main_now, set()

    def mention(self, thing: T, weight: float, subject: bool = False, main: bool = False) -> None:
        """Record a mention of ``thing`` with ``weight`` (one of the ``W_*`` weights); ``main``
        for the subject of the sentence's main clause, as against one of a clause inside it."""
        self.score[thing] = self.score.get(thing, 0.0) + weight
        if subject:
            self._subjects_now.add(thing)
        if subject and main:
            self._main_now.add(thing)

    def of(self, thing: T) -> float:
        """The salience of ``thing`` now."""
        return self.score.get(thing, 0.0)

    def ranked(self, candidates: Iterable[T], minimum: float = MIN_SALIENCE) -> list[T]:
        """``candidates`` at least ``minimum`` salient, the most salient first."""
        return sorted((c for c in candidates if self.of(c) >= minimum), key=lambda c: -self.of(c))

    def pick(self, ranked: list[T]) -> T | None:
        """The one candidate that was the subject of this sentence (before the reference) or of
        the last one, if it is at least half as salient as the first of ``ranked`` (of several,
        the one that was the subject of this sentence's main clause, else of the last one's);
        else the first of ``ranked``, unless a rival is within the margin."""
        if not ranked:
            return None
        top = self.of(ranked[0])
        centred = [c for c in ranked if (c in self._subjects_now or c in self._subjects_before) and self.of(c) * 2 >= top]
        if len(centred) == 1:
            return centred[0]
        for main in (self._main_now, self._main_before):
            # this sentence's main subject before last sentence's: "X weighed in, telling Y, '...,' he said"
            centred_main = [c for c in centred if c in main]
            if len(centred_main) == 1:
                return centred_main[0]
        close = [c for c in ranked if self.of(c) * MARGIN > top]
        return ranked[0] if len(close) == 1 else None


@dataclass
class Focus:
    """What each sentence of the article is about, as coreference left it: for each sentence
    (by index), the salience of every entity key right after the sentence was read."""

    by_sentence: list[dict[str, float]] = field(default_factory=list)

    def record(self, scores: dict[str, float]) -> None:
        """Keep a copy of the scores at the end of one sentence."""
        self.by_sentence.append({k: v for k, v in scores.items() if v >= MIN_SALIENCE / 4})

    def most_salient(self, sentence: int, keep: Callable[[str], bool]) -> str | None:
        """The one key ``keep`` accepts that dominated at the end of ``sentence`` (by the margin), if any."""
        if not 0 <= sentence < len(self.by_sentence):
            return None
        scores = self.by_sentence[sentence]
        ranked = sorted((k for k, v in scores.items() if keep(k) and v >= MIN_SALIENCE), key=lambda k: -scores[k])
        if not ranked or len(ranked) > 1 and scores[ranked[1]] * MARGIN > scores[ranked[0]]:
            return None
        return ranked[0]
