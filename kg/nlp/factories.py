"""Registration of kg's spaCy components, all in one place.

Each component is a thin wrapper: it gathers what the components before it stored on the
Doc's ``doc._`` extensions into a :class:`kg.extract.found.Found` (:func:`found_on`), calls a
pure extractor from ``kg.extract`` with it, and stores the result. These are the only places
``doc._`` is read or written. Users can add them to their own pipeline
(``nlp.add_pipe("kg_quotes")``) once ``import kg.nlp.factories`` has run, in the order of
``KG_COMPONENTS``.
"""

from __future__ import annotations

from spacy.attrs import SENT_START
from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.events.extract import extract_events
from kg.extract.events.names import find_event_mentions
from kg.extract.events.scene import read_scene
from kg.extract.found import Found
from kg.extract.model import Scene
from kg.extract.people.coref import read_entities
from kg.extract.performances.extract import extract_performances
from kg.extract.places.extract import extract_places
from kg.extract.quotes.extract import extract_quotes
from kg.extract.text import gazetteer
from kg.extract.text.dateline import find_dateline, printed_day
from kg.extract.text.doc_index import is_spaced_dash, release_index
from kg.extract.text.lexicon import function_words
from kg.extract.works.extract import extract_works, link_creators
from kg.nlp.extensions import set_doc_extensions

#: kg's fact components, in the order they must run (each reads the ones before it).
KG_COMPONENTS = ("kg_entity_lines", "kg_event_names", "kg_places", "kg_works", "kg_events", "kg_coref",
                 "kg_work_creators", "kg_quotes", "kg_performances")

#: Small words that stay inside a name ("Prince of Wales", "Ana de la Cruz").
_NAME_INNER = function_words("name-inner")
#: Most characters a line may have and still be a heading rather than wrapped prose.
_HEADING_CHARS = 60


@Language.component("kg_paragraphs")
def mark_paragraphs(doc: Doc) -> Doc:
    """Start a sentence after every blank line, before the parser runs.

    Headlines, captions and bylines carry no final full stop; without this the
    parser glues them to the next paragraph's first sentence. The starts are set in
    one go: spaCy checks the whole Doc for a parse each time one token's is set, and
    ``doc.text`` joins every token anew, which made this pass grow with the square of
    the text (3 s of a 400,000-character Doc).
    """
    text = doc.text
    starts = [
        token.i + 1
        for token in doc[:-1]
        if token.is_space and token.text.count("\n") >= 2 or "\n" in token.text and _line_ends(doc, text, token)
    ]
    if starts:
        if doc.has_annotation("DEP"):
            raise ValueError("kg_paragraphs sets sentence starts, so it must run before the parser")
        values = doc.to_array([SENT_START])
        values[starts] = 1
        doc.from_array([SENT_START], values)
    return doc


def _line_ends(doc: Doc, text: str, newline) -> bool:  # type: ignore[no-untyped-def]
    """Whether one newline ends a sentence: after a full stop, or a short heading ("1. Ana Silva").

    A long line with no full stop is wrapped prose that goes on past the newline.
    """
    line_start = text.rfind("\n", 0, newline.idx) + 1
    line = text[line_start : newline.idx].rstrip()
    after = doc[newline.i + 1]
    if not line or not (after.is_title or after.is_upper or after.is_digit or after.is_punct):
        return False
    return line[-1] in ".!?:\"”’" or len(line) <= _HEADING_CHARS


@Language.component("kg_entity_lines")
def split_entity_lines(doc: Doc) -> Doc:
    """Cut the model's entities at line breaks, at a dash set off by spaces, and where a person's
    name runs on into a headline's verb.

    A heading over a paragraph ("1. Ana Silva") runs into the paragraph's first word for
    the model, which reads across lines: "Ana Silva\nSilva opened..." is two names. A
    dash with a space on each side is punctuation, never part of a name (a name's hyphen
    has none): in a headline "Ana Silva - Brindle Hall, Denver" or a dateline "DENVER -
    Since ..." the name ends before it, and what follows is left to the other readers. In a
    headline in title case the model may read the verb as part of the name ("Ana Silva Kicks
    Off Her Tour"): the name ends where a shorter one the article names ends.
    """
    found = doc.ents
    people = {ent.text for ent in found if ent.label_ == "PERSON"}
    # (asked of each entity, not of doc.text, which spaCy rebuilds token by token)
    if not any("\n" in ent.text or len(ent) > 2 and any(is_spaced_dash(t) for t in ent) or _runs_on(ent, people)
               for ent in found):
        return doc  # most Docs: setting doc.ents again would cost as much as the rest
    ents = []
    for ent in found:
        start, end = ent.start, _named_end(ent, people) if _runs_on(ent, people) else ent.end
        for token in doc[start:end]:
            if "\n" in token.text:
                if token.i > start:
                    ents.append(Span(doc, start, token.i, label=ent.label_))
                start = token.i + 1
            elif token.i > start and is_spaced_dash(token):
                end = token.i
                break
        if end > start:
            ents.append(Span(doc, start, end, label=ent.label_))
    doc.ents = ents
    return doc


def _runs_on(ent: Span, people: set[str]) -> bool:
    """A person's name that runs on into a headline's verb ("Ana Rivera Kicks Off ..."): a
    preposition or particle inside it, and a shorter name the article tags as a person in front."""
    return ent.label_ == "PERSON" and any(t.pos_ in ("ADP", "PART") and t.lower_ not in _NAME_INNER for t in ent[1:]) \
        and _named_end(ent, people) < ent.end


def _named_end(ent: Span, people: set[str]) -> int:
    """The end of the longest shorter name at the start of ``ent`` that the article tags as a person."""
    return next((k for k in range(ent.end - 1, ent.start, -1) if ent.doc[ent.start : k].text in people), ent.end)


def found_on(doc: Doc) -> Found:
    """What kg's components before this one left on the Doc: the input of the next stage. An
    article without a publication date is dated by its dateline when that prints a year."""
    scene = doc._.scene
    line = doc._.dateline
    return Found(published=doc._.published or printed_day(doc, line), event_mentions=tuple(doc._.event_mentions),
                 places=tuple(doc._.places), works=tuple(doc._.works), events=tuple(doc._.events),
                 scene=scene if scene is not None else Scene(), entities=tuple(doc._.entities), focus=doc._.focus,
                 dateline=line)


def _setter(attr: str, extract):  # type: ignore[no-untyped-def]
    """A component that stores ``extract(doc, found)`` on ``doc._.<attr>``."""

    def component(doc: Doc) -> Doc:
        setattr(doc._, attr, tuple(extract(doc, found_on(doc))))
        return doc

    return component


@Language.factory("kg_event_names", assigns=["doc._.event_mentions", "doc._.dateline"])
def make_event_names(nlp: Language, name: str):  # type: ignore[no-untyped-def]
    set_doc_extensions()

    def component(doc: Doc) -> Doc:
        # (the dateline first: places, events, the scene and the people stage all read it)
        doc._.dateline = find_dateline(doc)
        doc._.event_mentions = find_event_mentions(doc)
        return doc

    return component


@Language.factory("kg_places", requires=["doc._.event_mentions"], assigns=["doc._.places"])
def make_places(nlp: Language, name: str):  # type: ignore[no-untyped-def]
    set_doc_extensions()
    gazetteer.load()
    return _setter("places", extract_places)


@Language.factory("kg_works", requires=["doc._.event_mentions"], assigns=["doc._.works"])
def make_works(nlp: Language, name: str):  # type: ignore[no-untyped-def]
    set_doc_extensions()
    return _setter("works", extract_works)


@Language.factory("kg_events", requires=["doc._.places", "doc._.works"], assigns=["doc._.events", "doc._.scene"])
def make_events(nlp: Language, name: str):  # type: ignore[no-untyped-def]
    set_doc_extensions()

    def component(doc: Doc) -> Doc:
        found = found_on(doc)
        doc._.events, doc._.scene = read_scene(doc, extract_events(doc, found), found)
        return doc

    return component


@Language.factory(
    "kg_coref", requires=["doc._.places", "doc._.works", "doc._.events"], assigns=["doc._.entities", "doc._.focus"]
)
def make_coref(nlp: Language, name: str):  # type: ignore[no-untyped-def]
    set_doc_extensions()

    def component(doc: Doc) -> Doc:
        doc._.entities, doc._.focus = read_entities(doc, found_on(doc))
        return doc

    return component


@Language.factory("kg_work_creators", requires=["doc._.works", "doc._.entities"], assigns=["doc._.works"])
def make_work_creators(nlp: Language, name: str):  # type: ignore[no-untyped-def]
    set_doc_extensions()

    def component(doc: Doc) -> Doc:
        doc._.works = link_creators(tuple(doc._.works), tuple(doc._.entities))
        return doc

    return component


@Language.factory("kg_quotes", requires=["doc._.entities", "doc._.works", "doc._.events"], assigns=["doc._.quotes"])
def make_quotes(nlp: Language, name: str):  # type: ignore[no-untyped-def]
    set_doc_extensions()
    return _setter("quotes", extract_quotes)


@Language.factory(
    "kg_performances",
    requires=["doc._.entities", "doc._.works", "doc._.events", "doc._.places", "doc._.scene"],
    assigns=["doc._.performances"],
)
def make_performances(nlp: Language, name: str):  # type: ignore[no-untyped-def]
    set_doc_extensions()

    def component(doc: Doc) -> Doc:
        doc._.performances = tuple(extract_performances(doc, found_on(doc)))
        # the last of kg's components: the index built for them is no longer needed
        release_index(doc)
        return doc

    return component
