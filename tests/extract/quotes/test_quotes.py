"""Quotations: spans, cues, speakers, continuations, and what is not a quotation."""

from __future__ import annotations

import json

import pytest

from kg.extract.model import Facts
from kg.extract.text.marks import find_marked_spans, strip_marks

from ...conftest import EXAMPLES


def _said(facts: Facts) -> list[tuple[str, str | None]]:
    """(quote text, speaker name or None) in text order."""
    names = {e.key: e.name for e in facts.entities}
    return [(q.span.text, names.get(q.speaker) if q.speaker else None) for q in facts.quotes]


# --- the mark scanner, on plain text -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "inside"),
    [
        ('He said "hello there" and left.', ["hello there"]),
        ("He said “hello there” and left.", ["hello there"]),
        ("Headline: ‘We will win’", ["We will win"]),
        ("“It was called ‘a mess’ by critics,” she said.", ["It was called ‘a mess’ by critics,"]),
        ("“A,” she said, “B.”", ["A,", "B."]),
        ("The fans’ cheers and the band’s set.", []),
        ("Back in the ‘90s it was ‘different’.", ["different"]),
        ("“One.\n\n“Two.\n\n“Three,” he said.", ["One.", "Two.", "Three,"]),
        ("An “unclosed mark here.\n\nNext paragraph.", []),
        # two single marks written for one double mark, as some papers' archives do
        ("He said ''we are done'' and left.", ["we are done"]),
        ("He asked a “question’’ and ‘‘another one,’’ she said.", ["question", "another one,"]),
        ("''One.\n\n''Two,'' he said.", ["One.", "Two,"]),
        # a stray straight opener before a curly quotation: curly marks do not nest
        ('"Then she said “we are done” and left.', ["we are done"]),
        # a transcript's turns, each opened and never closed, are no quotation
        ("“HOST: Welcome back.\n\n“GUEST: Thank you.\n\nThe show ended.", []),
        # an opening curly mark typed where the closing one belongs closes; a nested one opens after a space
        ("“It was unusual,“ said Ana Rivera. “Fine.”", ["It was unusual,", "Fine."]),
        ("an “expedited review“ of the plan and a “health check” too", ["expedited review", "health check"]),
        # a text cut off inside a quotation over paragraphs keeps what was re-opened
        ("“Is it fair to wait?\n\n“Is it fair to", ["Is it fair to wait?"]),
    ],
)
def test_marked_spans(text: str, inside: list[str]) -> None:
    assert [text[s.start : s.end] for s in find_marked_spans(text)] == inside


def test_paragraphs_of_one_quotation_share_a_group() -> None:
    text = "“One.\n\n“Two.\n\n“Three,” he said. “Other.”"
    groups = [s.group for s in find_marked_spans(text)]
    assert groups[0] == groups[1] == groups[2] != groups[3]


def test_strip_marks_ignores_punctuation_and_case() -> None:
    assert strip_marks("It’s  FINE,") == strip_marks("it's fine.")


# --- speakers and cues -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # cue after, subject first
        ('"The vote was a mistake," Anna Kowalski said.', [("The vote was a mistake,", "Anna Kowalski")]),
        # cue after, inverted word order
        ("“We are staying,” said Prime Minister Carlos Mendez.", [("We are staying,", "Carlos Mendez")]),
        # cue before with a colon
        (
            "Marcus Webb spoke to the crowd. He added: “This is only the beginning.”",
            [("This is only the beginning.", "Marcus Webb")],
        ),
        # split around the cue: two quotations, one speaker
        (
            "“I love this town,” Priya Natarajan said, “and I will come back.”",
            [("I love this town,", "Priya Natarajan"), ("and I will come back.", "Priya Natarajan")],
        ),
        # the closing mark glued to the name after it
        ("“The plan will fail,”Anna Kowalski said.", [("The plan will fail,", "Anna Kowalski")]),
        # "continue to be" says nothing: the verb of saying is the one over it
        (
            "Anna Kowalski said she was sure Tomas Brandt would continue to be “a friend of the harbour.”",
            [("a friend of the harbour.", "Anna Kowalski")],
        ),
        # partial quote inside reported speech
        (
            "Olivia Grant said she felt “very protective of the whole crew” after the storm.",
            [("very protective of the whole crew", "Olivia Grant")],
        ),
        # a second fragment under the same verb, past the first quotation
        (
            "Olivia Grant said she won “every single vote” and that talks with Omar Haddad went well "
            "because there was “a lot to discuss.”",
            [("every single vote", "Olivia Grant"), ("a lot to discuss.", "Olivia Grant")],
        ),
        (
            "Olivia Grant said the council had “failed the town” but that Omar Haddad was “an honest broker.”",
            [("failed the town", "Olivia Grant"), ("an honest broker.", "Olivia Grant")],
        ),
        # according to
        (
            "According to Daniel Ortiz, “the budget will not survive the winter.”",
            [("the budget will not survive the winter.", "Daniel Ortiz")],
        ),
        # a statement's owner speaks
        (
            "Helen Brooks’s statement read: “I am stepping down to spend time with family.”",
            [("I am stepping down to spend time with family.", "Helen Brooks")],
        ),
        # wrote / captioned on social media
        (
            "“Best night of my life,” Tomas Lindqvist captioned a photo on Instagram.",
            [("Best night of my life,", "Tomas Lindqvist")],
        ),
        # single quotes as the outer mark (British style)
        (
            "‘We will not back down,’ said Fiona MacLeod, the party leader.",
            [("We will not back down,", "Fiona MacLeod")],
        ),
        # nested single quotes stay part of the outer quotation
        (
            "“People keep calling it ‘a comeback’ but I never left,” Rosa Diaz told reporters.",
            [("People keep calling it ‘a comeback’ but I never left,", "Rosa Diaz")],
        ),
        # an organisation can speak
        (
            "“We regret the delay,” Nordwind Airlines said in a statement.",
            [("We regret the delay,", "Nordwind Airlines")],
        ),
        # readers' words each signed by a dash glued to the closing mark
        (
            "Readers wrote in.\n\n“The harbour plan is a mistake.”― Nadia Ferreira\n"
            "“I will vote against it in May.”―Tomas Lindqvist.",
            [("The harbour plan is a mistake.", "Nadia Ferreira"), ("I will vote against it in May.", "Tomas Lindqvist")],
        ),
        # the verb whose clause holds the words speaks, not a nearer one modifying a noun
        (
            "Ana Rivera had mocked the complaint, saying anybody who complains about the weather "
            "“is not trying hard enough.”",
            [("is not trying hard enough.", "Ana Rivera")],
        ),
        (
            "Mayor Tomas Lindqvist said the reported arsonist, who fled before dawn, had “local roots.”",
            [("local roots.", "Tomas Lindqvist")],
        ),
        # a question that ends its sentence: the verb after it opens the next one, about the next words
        (
            "Ana Rivera answered Tomas Lindqvist with “Why now? Why this week?” Lindqvist then wrote back, "
            "“Because the vote is on Friday.”",
            [("Why now? Why this week?", "Ana Rivera"), ("Because the vote is on Friday.", "Tomas Lindqvist")],
        ),
        # a name before a verb of saying the parser left without a subject, past an aside in dashes
        (
            "Fans cheered as Ana Rivera – of the folk duo Rivera and Lind – tweeted: ‘Best night of my life, thank you all.’",
            [("Best night of my life, thank you all.", "Ana Rivera")],
        ),
        # ... and past a relative clause in commas, the name opening the sentence
        (
            "Nicole Alder sang at the gala. Alder, who had never sung the song live before, noted, "
            "“It’s a beautiful song when you listen to it.”",
            [("It’s a beautiful song when you listen to it.", "Nicole Alder")],
        ),
        # a participle after a comma goes on with the report of the verb of saying before it
        (
            "“The harbour is safe,” Rosa Diaz said, going on to say that the town had spent "
            "“years of work on it.”",
            [("The harbour is safe,", "Rosa Diaz"), ("years of work on it.", "Rosa Diaz")],
        ),
        (
            "Tomas Lindqvist cannot claim that “from the start,” Rosa Diaz added, saying it was "
            "“up to the council to decide.”",
            [("from the start", "Rosa Diaz"), ("up to the council to decide.", "Rosa Diaz")],
        ),
    ],
)
def test_speaker_from_cue(run, text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _said(run(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # pronoun to the only person around
        (
            "Grace Holloway thanked her fans. “You carried me through this,” she said.",
            [("You carried me through this,", "Grace Holloway")],
        ),
        # an age description
        (
            "Leo Marsh returned on Friday.\n\n“I missed you all so much,” the 29-year-old told the crowd.",
            [("I missed you all so much,", "Leo Marsh")],
        ),
        # an epithet
        (
            "Nina Park released a new record. “It is my most honest work,” the singer wrote.",
            [("It is my most honest work,", "Nina Park")],
        ),
        # a surname after the full name
        (
            "Victor Hale spoke first. “We have waited long enough,” Hale said.",
            [("We have waited long enough,", "Victor Hale")],
        ),
        # an epithet with a numeral and a proper noun inside it
        (
            "Maya Chen won again on Sunday. The 4-time Emmy winner said she was “stunned by the support of everyone.”",
            [("stunned by the support of everyone.", "Maya Chen")],
        ),
        # gender keeps "he" off Mary
        (
            "Mary Lowe and John Pratt met on Monday. “It went well,” Lowe said. “We need more time,” he added.",
            [("It went well,", "Mary Lowe"), ("We need more time,", "John Pratt")],
        ),
    ],
)
def test_speaker_through_coreference(run, text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _said(run(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # continuation in the next sentence with no cue of its own
        (
            "“It was a long night,” Sam Ortega said. “We did not sleep at all.”",
            [("It was a long night,", "Sam Ortega"), ("We did not sleep at all.", "Sam Ortega")],
        ),
        # a multi-paragraph quotation whose cue comes in the last paragraph
        (
            "“The first part of the speech.\n\n“The second part goes on.\n\n“And the end of it,” Ines Duarte said.",
            [
                ("The first part of the speech.", "Ines Duarte"),
                ("The second part goes on.", "Ines Duarte"),
                ("And the end of it,", "Ines Duarte"),
            ],
        ),
        # two speakers alternating
        (
            "Karl Weber and Lena Vogt disagreed. “We must cut taxes,” Weber said. “That would ruin us,” Vogt replied.",
            [("We must cut taxes,", "Karl Weber"), ("That would ruin us,", "Lena Vogt")],
        ),
        # another speaker named in between breaks the continuation
        (
            "“We won,” Tom Reyes said. Officials from the league disputed that, and Ana Silva called it unfair. “Nobody won tonight.”",
            [("We won,", "Tom Reyes"), ("Nobody won tonight.", None)],
        ),
        # ... but someone named only as the object of what the speaker does does not
        (
            "“I will vote for the plan,” said Lena Ortiz, a nurse from Leeds. She plans to back Tomas Lindqvist "
            "for mayor next month. “It is the only way forward.”",
            [("I will vote for the plan,", "Lena Ortiz"), ("It is the only way forward.", "Lena Ortiz")],
        ),
        # the rest of the cue's sentence tells what went on as it was said, naming others
        (
            ("“We will win,” Mara Quinlan said on Tuesday, as fans of Tomas Brandt waved flags outside "
            "the Brindle Hall. “Nobody can stop us now.”"),
            [("We will win,", "Mara Quinlan"), ("Nobody can stop us now.", "Mara Quinlan")],
        ),
        # ... but someone else's sentence of saying after it sets up words of their own
        (
            ("“We will win,” Mara Quinlan said. Tomas Brandt claimed that the vote was lost. "
            "“Nobody can stop us now.”"),
            [("We will win,", "Mara Quinlan"), ("Nobody can stop us now.", "Tomas Brandt")],
        ),
        # the speaker going on in reported speech, naming someone in it
        (
            ("“We will win,” said Mara Quinlan, the mayor. Quinlan added that Tomas Brandt had "
            "wanted a new vote. “Nobody can stop us now.”"),
            [("We will win,", "Mara Quinlan"), ("Nobody can stop us now.", "Mara Quinlan")],
        ),
        # someone else who shares the speaker's surname, named in the words, is no break
        (
            "“We won the vote,” Mara Quinlan said. “It takes courage, and Tomas Quinlan showed it every day.”",
            [("We won the vote,", "Mara Quinlan"),
             ("It takes courage, and Tomas Quinlan showed it every day.", "Mara Quinlan")],
        ),
        # the rest of the clause under the cue before a partial quote is the speaker's account
        (
            ("Mara Quinlan replied, adding that the town was “ready to vote” and that the new hall "
            "would open soon. “We have waited long enough.”"),
            [("ready to vote", "Mara Quinlan"), ("We have waited long enough.", "Mara Quinlan")],
        ),
    ],
)
def test_continuations(run, text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _said(run(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a cue with an unknown subject: kept, unattributed
        ("“Nobody knows what happened,” a witness told reporters.", [("Nobody knows what happened,", None)]),
        # a pronoun with nobody to refer to
        ("“I will be back next year,” she said.", [("I will be back next year,", None)]),
        # no cue at all
        (
            "The sign on the door read nothing. “Closed until further notice for repairs.”",
            [("Closed until further notice for repairs.", None)],
        ),
    ],
)
def test_unknown_speaker_is_none(run, text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _said(run(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a title before the name: the name is the speaker
        (
            "“The clock is ticking,” said Senate Majority Leader Rob Hanley.",
            [("The clock is ticking,", "Rob Hanley")],
        ),
        (
            "Her brother and producer Finn Adler called the record “a turning point for both of us.”",
            [("a turning point for both of us.", "Finn Adler")],
        ),
        # a colon after a clause whose subject is a person
        (
            "“We won fair and square,” Ben Ortiz said.\n\nCoach Dana Reyes was less convinced: “The referee made three bad calls.”",
            [("We won fair and square,", "Ben Ortiz"), ("The referee made three bad calls.", "Dana Reyes")],
        ),
        # a band speaks through "the band"
        (
            "The band Velvet Harbor cancelled two shows on Monday. “We are so sorry to every fan,” the band said.",
            [("We are so sorry to every fan,", "Velvet Harbor")],
        ),
        # a short line of dialogue is a quotation, not a scare quote
        ("Jonas Berg looked at the score. “Never!” he shouted.", [("Never!", "Jonas Berg")]),
        # a cue after a title in quotation marks: the title is not a quote, the words after it are
        (
            "“It's unbelievable,” Kai Brandt said on his podcast “Late Shift.” “I'm just proud of her.”",
            [("It's unbelievable,", "Kai Brandt"), ("I'm just proud of her.", "Kai Brandt")],
        ),
    ],
)
def test_more_speakers(run, text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _said(run(text)) == expected


def test_cue_word_and_span_are_kept(run) -> None:
    text = "“We are ready for the final,” Jonas Berg insisted."
    (quote,) = run(text).quotes
    assert quote.cue == "insisted"
    assert quote.cue_span is not None and text[quote.cue_span.start : quote.cue_span.end] == "insisted"
    assert 0.0 <= quote.confidence <= 1.0


def test_quote_span_is_inside_the_marks(run) -> None:
    text = "“We are ready for the final,” Jonas Berg said."
    (quote,) = run(text).quotes
    assert text[quote.span.start : quote.span.end] == quote.span.text == "We are ready for the final,"


# --- not quotations ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # song, album and film titles
        "Tara Quinn performed her hit song “Falling Into Morning” on Sunday.",
        "The band closed with the anthem “Rise Up Tonight” and left.",
        "Fans lined up for the “Midnight Harbor” premiere in Toronto.",
        "She released the album ‘Copper Kites’ in March.",
        # a title used as a modifier
        "On Monday, the “Glass Hearts” singer, 31, cancelled the show.",
        # scare quotes
        "The so-called “experts” were wrong about the “plan” again.",
        "Critics called it a “backlash” on Tuesday.",
        # a nickname
        "Marvin “The Hammer” Lopez won the fight.",
        # a Title In Capitals with no cue
        "Next week they will stage “The Long Goodbye Of Summer” in Leeds.",
        # a title ending its sentence with the full stop inside the marks
        "Mara Quinlan said the band won the prize for “Copper Kites.”",
        "Later Tomas Brandt came back to sing the old Lantern Radio classic “Glass Hearts.”",
        "Judges could not choose between two novels, “Harbor, Light, Salt.”",
    ],
)
def test_not_quotations(run, text: str) -> None:
    assert run(text).quotes == ()


def test_a_cue_subject_the_model_left_untagged_is_the_person_of_that_name(run) -> None:
    facts = run(
        "Mara Quinlan, the mayor, spoke to Tomas Brandt on Monday. “Your plan is amazing,” Quinlan assured "
        "Brandt, after Brandt assured her the vote was won."
    )
    assert _said(facts) == [("Your plan is amazing,", "Mara Quinlan")]


def test_capitalised_words_said_after_a_colon_stay_a_quotation(run) -> None:
    facts = run("Asked about the plan, Mara Quinlan said: “Absolutely Not.”")
    assert _said(facts) == [("Absolutely Not.", "Mara Quinlan")]


def test_no_wrong_speaker_for_a_title(run) -> None:
    facts = run("Rita Moss sang “Golden Rivers” and then said, “Thank you, everybody, for coming tonight.”")
    assert _said(facts) == [("Thank you, everybody, for coming tonight.", "Rita Moss")]


def test_words_a_person_says_stay_a_quotation_when_taken_for_a_title(nlp) -> None:
    """The works stage may read a quoted sentence (a headline's, or one the model tags) as a
    title; lower-case words with a speaker's cue are still words said, a title in capitals not."""
    from dataclasses import replace

    from kg.extract.model import TextSpan, Work
    from kg.extract.quotes.extract import extract_quotes
    from kg.io.article import Article
    from kg.nlp.factories import found_on
    from kg.nlp.pipeline import make_doc

    text = "“We will stay,” Anna Kowalski replied. Tomas Brandt said “Harbour Lights” was his favourite."
    doc = nlp(make_doc(nlp, Article(id="taken", text=text)))
    titles = [(text.index(words), words) for words in ("We will stay", "Harbour Lights")]
    taken = tuple(Work(key=f"work:{i}", title=words, kind="song", mentions=(TextSpan(at, at + len(words), words),))
                  for i, (at, words) in enumerate(titles))
    found = found_on(doc)
    found = replace(found, works=found.works + taken)
    names = {e.key: e.name for e in found.entities}
    assert [(q.span.text, names.get(q.speaker)) for q in extract_quotes(doc, found)] == [
        ("We will stay,", "Anna Kowalski")]


def test_standfirst_repeating_a_body_quote_is_one_utterance(run) -> None:
    text = (
        "“We fought for every vote,” Alma Reyes said after the count\n\n"
        "Alma Reyes won the seat on Thursday.\n\n"
        "“We fought for every vote. Now the work begins,” Reyes said."
    )
    assert _said(run(text)) == [("We fought for every vote. Now the work begins,", "Alma Reyes")]


def test_words_of_one_speaker_repeated_by_another_stay_two_utterances(run) -> None:
    text = (
        "Ana Rivera said in May that she was “not ready yet.” Tomas Lindqvist laughed at that. "
        "“She told everyone she was not ready yet, and then she ran anyway,” Lindqvist said."
    )
    assert _said(run(text)) == [
        ("not ready yet.", "Ana Rivera"),
        ("She told everyone she was not ready yet, and then she ran anyway,", "Tomas Lindqvist"),
    ]


def test_headline_speaker_before_the_colon(run) -> None:
    facts = run(
        "Related: Singer Jane Olsen on Her Comeback: ‘I Never Stopped Writing’\n\nJane Olsen toured in May."
    )
    assert _said(facts) == [("I Never Stopped Writing", "Jane Olsen")]


# --- the seed article, shipped in examples/ -------------------------------------------


def test_seed_article_quotes(run) -> None:
    text = (EXAMPLES / "seed.txt").read_text(encoding="utf-8")
    gold = json.loads((EXAMPLES / "gold" / "seed.json").read_text(encoding="utf-8"))
    facts = run(text)
    got = {strip_marks(q.span.text): q.speaker for q in facts.quotes}
    names = {e.key: e.name for e in facts.entities}
    for quote in gold["quotes"]:
        key = strip_marks(quote["text"])
        if quote.get("optional"):
            continue
        assert key in got, quote["text"]
        assert names.get(got[key]) == quote["speaker"], quote["text"]
    gold_keys = {strip_marks(q["text"]) for q in gold["quotes"]}
    for key, speaker in got.items():
        # nothing beyond the gold is attributed, and no title or scare quote slips in
        assert key in gold_keys or speaker is None, key


def test_fragment_holder_prefers_the_reporter_before_the_words(nlp) -> None:
    """Words the parser left outside the verb of saying before them are still the reporter's
    account, not the words of the person the account is about."""
    from kg.extract.quotes.candidates import Candidate, left_context, right_context
    from kg.extract.quotes.extract import _quoted_tokens
    from kg.extract.quotes.fragments import by_fragment_holder
    from kg.extract.quotes.sieves import QuoteContext
    from kg.extract.text.doc_index import doc_text
    from kg.extract.text.marks import find_marked_spans
    from kg.io.article import Article
    from kg.nlp.pipeline import make_doc

    text = "Mara Quinlan says that the town wants a mayor, but instead Tomas Brandt hands the voters “speeches and excuses.”"
    doc = nlp(make_doc(nlp, Article(id="reporter", text=text)))
    marks = find_marked_spans(doc_text(doc))
    in_quote = _quoted_tokens(doc, marks)
    (mark,) = marks
    content = doc.char_span(mark.start, mark.end, alignment_mode="expand")
    cand = Candidate(mark, content, left_context(doc, mark, in_quote), right_context(doc, mark, in_quote))
    ctx = QuoteContext(doc, doc_text(doc), tuple(doc._.entities), in_quote, [cand], doc._.focus)
    speaker = by_fragment_holder(ctx, 0, cand)  # as if no cue had been found
    assert speaker is not None and speaker.name == "Mara Quinlan"


def test_a_cue_after_words_that_end_their_sentence_is_the_next_quotations(run) -> None:
    facts = run(
        "Mara Quinlan said that Tomas Brandt had met the fishermen who “keep a close watch on the harbor.” "
        "He added, “We will win the vote.”"
    )
    assert _said(facts)[0] == ("keep a close watch on the harbor.", "Mara Quinlan")


# --- whose words a participle or a relative clause gives ------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # the sentence's subject cannot speak: the participle goes to the nearest one who can
        "Thunder rolled over the field as Mara Quinlan told the band to start again, saying: "
        "\u201cI came in far too early.\u201d",
        # a participle whose parsed subject is a thing ("a quip") is the person's
        "Host Mara Quinlan made a quip about the weather, joking, \u201cWe brought the rain with us tonight.\u201d",
        # "who" right after the name, whatever the parser hung the clause on
        "The night opened with a video message from Mara Quinlan, who said: \u201cThank you all for coming.\u201d",
    ],
)
def test_a_participle_or_relative_cue_speaks_for_the_person_before_it(run, text):
    assert _said(run(text)) == [(text[text.index("\u201c") + 1 : text.index("\u201d")], "Mara Quinlan")]


def test_a_verb_after_a_title_in_marks_is_no_cue(run):
    # "performed" after a song's title in marks names the song, it does not report words
    facts = run('"Harbor Lights," Mara Quinlan performed at the Orla Hall, closed the night.')
    assert _said(facts) == []
