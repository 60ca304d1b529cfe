"""Works: titles, kinds, years and creators."""

from __future__ import annotations

import pytest

from kg.extract.model import Facts, Work


def _work(facts: Facts, title: str) -> Work:
    found = [w for w in facts.works if w.title == title]
    assert found, f"{title!r} not among {[w.title for w in facts.works]}"
    return found[0]


def _creator(facts: Facts, title: str) -> str | None:
    key = _work(facts, title).creator
    return next((e.name for e in facts.entities if e.key == key), None)


@pytest.mark.parametrize(
    ("text", "title", "kind", "year"),
    [
        ("She sang her 2014 hit queer anthem “Paper Moons” to a full house.", "Paper Moons", "song", 2014),
        ("The “Silver Rain” singer, 30, arrived late.", "Silver Rain", "song", None),
        ("His new single 'Golden Hour Drive' is out.", "Golden Hour Drive", "song", None),
        ("The band released the album “Northern Static” in 2019.", "Northern Static", "album", None),
        ("She starred in the film Winter Harbor last year.", "Winter Harbor", "film", None),
        ("The Night Garden Is Blooming actor added that he was proud.", "Night Garden Is Blooming", "film", None),
        ("The musical “Crimson Steps” opens on Broadway.", "Crimson Steps", "show", None),
        ("Fans loved the series “Quiet Towns”.", "Quiet Towns", "tv", None),
        ("Her memoir “Salt and Honey” (2020) sold well.", "Salt and Honey", "book", 2020),
        ("He opened with “Blue Lanterns”, then “Iron Sky” and “Low Tide”.", "Low Tide", "song", None),
        ("She delivered a rendition of “Far Away Fields” at the gala.", "Far Away Fields", "song", None),
        ("She starred in the hit HBO series The Long Road Home last year.", "The Long Road Home", "tv", None),
        ("The band released the album In Rainbows in 2007.", "In Rainbows", "album", None),
        ("He ended with “Enter Night.”", "Enter Night", "song", None),
        ("He played “Born to Run,” the title track.", "Born to Run", "song", None),
    ],
)
def test_work(run, text: str, title: str, kind: str, year: int | None) -> None:
    work = _work(run(text), title)
    assert work.kind == kind
    assert work.year == year


def test_mentions_are_the_title_without_quote_marks(run) -> None:
    text = "The “Paper Moons” singer sang “Paper Moons” again."
    facts = run(text)
    work = _work(facts, "Paper Moons")
    assert len(facts.works) == 1
    assert [text[m.start : m.end] for m in work.mentions] == ["Paper Moons", "Paper Moons"]


@pytest.mark.parametrize(
    ("text", "title", "creator"),
    [
        ("Mara Quinn performed her 2011 hit “Glass Houses” in Paris.", "Glass Houses", "Mara Quinn"),
        ("“Lantern Song” by Theo Marsh topped the charts.", "Lantern Song", "Theo Marsh"),
        ("Theo Marsh sang. Fans of Theo Marsh's album “Cold Water” cheered.", "Cold Water", "Theo Marsh"),
    ],
)
def test_creator(run, text: str, title: str, creator: str) -> None:
    assert _creator(run(text), title) == creator


def test_actor_is_not_the_creator_of_the_film(run) -> None:
    facts = run("Dana Price is the Night Garden Is Blooming actor.")
    assert _work(facts, "Night Garden Is Blooming").creator is None


@pytest.mark.parametrize(
    "text",
    [
        "“It is hatred, plain and simple,” she said.",
        "People called it ‘backlash’ online.",
        "“We Will Win,” the coach shouted.",
        "She said the show was “Absolutely Wonderful.”",
    ],
)
def test_quotation_is_not_a_work(run, text: str) -> None:
    assert run(text).works == ()


@pytest.mark.parametrize(
    ("text", "title", "kind"),
    [
        # "dedicated" tagged as an adjective of the title is still the verb
        ("The singer, who grew up by the docks, dedicated “Lantern Song” to her grandmother.",
         "Lantern Song", "song"),
        # "play" is a verb here, not a stage play
        ("Laura Finch said the band would play “Harvest Moon” for the first time.", "Harvest Moon", "song"),
        # an award category names the kind of the work it went to
        ("Laura Finch won album of the year for “Cold Water.”", "Cold Water", "album"),
    ],
)
def test_kind_from_verbs_and_categories(run, text: str, title: str, kind: str) -> None:
    facts = run(text)
    assert _work(facts, title).kind == kind
    # a title is never a quotation
    assert not [q for q in facts.quotes if title in q.span.text]


def test_subject_of_a_relative_clause_is_no_title(run) -> None:
    facts = run("They played “Paper Roads,” a song Mercer wrote with Finch during lockdown.")
    assert [w.title for w in facts.works] == ["Paper Roads"]


@pytest.mark.parametrize(
    "text",
    [
        "Her album Desert Bloom won best pop vocal album.",
        "The singer, whose album Desert Bloom won best pop vocal album, will perform in August.",
    ],
)
def test_an_owned_title_the_model_calls_a_person_is_the_work(run, text: str) -> None:
    facts = run(text)
    assert _work(facts, "Desert Bloom").kind == "album"
    assert "Desert Bloom" not in {e.name for e in facts.entities}


def test_a_name_after_a_work_noun_is_still_a_person_when_nobody_owns_the_work(run) -> None:
    facts = run("It is a song Ana Silva wrote in 2010. She met the film star Ana Silva.")
    assert facts.works == ()
    assert [e.name for e in facts.entities] == ["Ana Silva"]


@pytest.mark.parametrize(
    ("text", "title", "kind"),
    [
        # the tagger calls the cue an adjective and the title a person
        ("The musical Harbour Lights opened at the Lyric Theatre on Thursday.", "Harbour Lights", "show"),
        # parsed as "the film [that] Silent River opened": a title all the same
        ("The film Silent River opened in May.", "Silent River", "film"),
        ("The album Desert Bloom was released in May.", "Desert Bloom", "album"),
    ],
)
def test_a_capitalised_title_after_its_cue_noun(run, text: str, title: str, kind: str) -> None:
    facts = run(text)
    assert _work(facts, title).kind == kind
    assert facts.entities == ()


def test_a_person_making_the_work_is_no_title(run) -> None:
    facts = run("It was the film Nolan directed in 2010.")
    assert facts.works == ()
    assert [e.name for e in facts.entities] == ["Nolan"]


@pytest.mark.parametrize(
    ("text", "works"),
    [
        ("Her new film, Salt Year, follows a fishing town.", [("Salt Year", "film")]),
        ("Her debut album, Lighthouse Keeper, won the prize in March.", [("Lighthouse Keeper", "album")]),
        # a speaker set off by commas is no title
        ("About the record, Tom Reyes said, little was known.", []),
        ("The film, which opened in May, flopped.", []),
    ],
)
def test_a_title_set_off_by_commas_after_its_cue(run, text: str, works: list[tuple[str, str]]) -> None:
    assert [(w.title, w.kind) for w in run(text).works] == works


def test_a_catalogue_number_set_off_by_a_comma_is_part_of_the_title(run) -> None:
    facts = run("The Harbor Symphony Orchestra performed Tomas Vell's Cello Sonata, Op. 12, on Sunday.")
    assert [w.title for w in facts.works] == ["Cello Sonata, Op. 12"]


def test_a_full_stop_inside_the_marks_is_not_the_title_s(run) -> None:
    facts = run("Mara Quinlan returned to sing the upbeat classic “A-B-C.”")
    assert [w.title for w in facts.works] == ["A-B-C"]


def test_a_translation_in_brackets_is_the_same_work(run) -> None:
    facts = run("Mara Quinlan sang “Chanson de la mer” (“Song of the Sea”) at the Quarry Festival.")
    (work,) = facts.works
    assert work.title == "Chanson de la mer"
    assert [m.text for m in work.mentions] == ["Chanson de la mer", "Song of the Sea"]


def test_a_quoted_title_after_a_song_verb_the_model_lemmatises_wrongly_is_a_song(run) -> None:
    facts = run("At the Quarry Festival, Mara Quinlan duetted with Ines Harrow on ‘Tin Roof’.")
    assert [(w.title, w.kind) for w in facts.works] == [("Tin Roof", "song")]


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        # a form word after a place's name is an orchestra; with a number, an ordinal or an owner, a piece
        ("The Orla Bay Symphony opened its season at the Brindle Hall.", set()),
        ("The Orla Bay Symphony played Tomas Vell's Pastoral Symphony and the Ninth Symphony.",
         {"Pastoral Symphony", "Ninth Symphony"}),
        ("The Orla Bay Symphony played Symphony No. 6 on Sunday.", {"Symphony No. 6"}),
    ],
)
def test_a_symphony_is_a_piece_only_with_a_number_or_an_owner(run, text: str, pieces: set[str]) -> None:
    assert {w.title for w in run(text).works} == pieces


@pytest.mark.parametrize(
    ("text", "titles"),
    [
        # a verb of performing whose "to" the parser reads as an infinitive
        ("Rivera played the Brindle Hall. We were treated to Open Your Hands, Just Say Maybe and Crack The Windows.",
         {"Open Your Hands", "Just Say Maybe", "Crack The Windows"}),
        # plural renditions hold a list; a credit "by" someone ends each title
        ("Rivera played the Brindle Hall. Fans loved her performances of I Can't Make You Stay by Bonnie Reyes "
         "and When You Leave by Tom Hale.", {"I Can't Make You Stay", "When You Leave"}),
        # a title that starts with a number
        ("Rivera played the Brindle Hall. The band took the stage to perform 7 Worlds Apart.", {"7 Worlds Apart"}),
        # a year and a describing noun, then a comma
        ("Rivera played the Brindle Hall, with a stirring rendition of her 2004 classic, Paper Lanterns Burn.",
         {"Paper Lanterns Burn"}),
        # an owner, then what describes the title
        ("Rivera played the Brindle Hall and rendered Tom Ade's classic hit Tota Mole.", {"Tota Mole"}),
        # a take on a title; a singalong of one
        ("Rivera played the Brindle Hall. Reyes came out to deliver his take on Do You Think I'm Clever?",
         {"Do You Think I'm Clever"}),
        ("Rivera played the Brindle Hall. Things closed out with a huge crowd singalong of Chasing Trains.",
         {"Chasing Trains"}),
        # a set's course "began with" titles in marks, whatever their case
        ("Rivera played the Brindle Hall. The show began with “bad idea right?” and “ballad of a lost boy.”",
         {"bad idea right", "ballad of a lost boy"}),
        # a list after a song's cue noun holds titles in sentence case, even one in lower case
        ("Velvet Row played the Brindle Hall with hit singles like Come down, Got love, wait for it, Social "
         "and the crowd was happy.", {"Come down", "Got love", "wait for it"}),
        ("Kora Lane played four of their smash singles: Run away, Call my name, Imagine That and Olufemi.",
         {"Run away", "Call my name", "Imagine That", "Olufemi"}),
        # the night or the tone a set's course is told through; an aside after each title
        ("Vikram Rao opened his tour in Delhi. He set the tone with Jaan Meri (Khuda Haafiz, 2020) and "
         "Janiye (Chor Nikal Ke Bhaga, 2023), and ended the night with his chartbusters Pehle Bhi (Animal, 2023) "
         "and Kaise Hua (Kabir Singh, 2019).",
         {"Jaan Meri", "Janiye", "Pehle Bhi", "Kaise Hua"}),
        # the next song of a set after "followed with"; a list in brackets after a cue noun
        ("Folk singer Archie Fell played the Royal Hall in Glasgow on Friday. Later Archie Fell followed with "
         "Song For A Friend.", {"Song For A Friend"}),
        ("The band Caperhill played the Royal Hall in Glasgow on Friday and finished with a rousing set of "
         "Scottish tunes (Alasdair Mor, The Tree) - backed by pipers.", {"Alasdair Mor", "The Tree"}),
        # a set's course whose "with" the parser hangs on the set
        ("Rivera played the Brindle Hall. Rivera began his set with Let Me Entertain You before a new song.",
         {"Let Me Entertain You"}),
    ],
)
def test_unquoted_titles_in_the_slots_a_setlist_fills(run, text: str, titles: set[str]) -> None:
    assert titles <= {w.title for w in run(text).works}


def test_a_sentence_case_list_ends_before_the_verb_of_its_clause(run) -> None:
    titles = {w.title for w in run("Velvet Row played Leeds. Hits like Come down, Got love and Social showed "
                                   "their range.").works}
    assert {"Come down", "Got love"} <= titles and not any("showed" in t for t in titles)


def test_a_sentence_case_title_stops_where_the_list_does(run) -> None:
    # ("from the album Vessel" is no part of a title: a lone first item takes no lower-case words)
    titles = {w.title for w in run("Rivera played the Brindle Hall. Fans sang songs like Hello from the album Vessel.").works}
    assert "Hello" in titles and not any("from" in t for t in titles)


def test_a_setlist_printed_one_title_to_a_line_is_read_up_to_the_first_sentence(run) -> None:
    text = ("Rosa Linde brings her acoustic tour to the Harbour Hall\n\nSet list\n\nFuego Lento\n\nLa Marea\n\n"
            "Encore\n\nRebel Song (No me digas)\n\nThe tour came to the Harbour Hall in Cork on Friday. "
            "Fans Waited Outside.")
    titles = {w.title for w in run(text).works}
    assert {"Fuego Lento", "La Marea", "Rebel Song (No me digas)"} <= titles
    assert not any("Cork" in t or "Encore" in t or "Waited" in t for t in titles)


def test_a_name_the_article_writes_as_an_owner_is_no_title_in_a_list(run) -> None:
    # (composers named for their music: "Liszt's Les préludes" makes "Liszt" a person, not a piece)
    text = ("The National Orchestra gave fine performances of Liszt, Schumann and Bartók at the Concert Hall "
            "in Dublin on Friday. The opening of Liszt's Les préludes was majestic. Bartók's Concerto for "
            "Orchestra closed the night.")
    titles = {w.title for w in run(text).works}
    assert "Liszt" not in titles and "Bartók" not in titles


def test_a_list_of_titles_in_single_marks_is_one_title_each(run) -> None:
    """The model may tag "Baby', 'Company" as one work of art across the marks; the marks say two."""
    facts = run("Ana Rivera played Leeds on Friday. The singer performed songs like 'Love yourself', 'Baby', "
                "'Company', 'No sense', 'Right now'.")
    assert {w.title for w in facts.works} == {"Love yourself", "Baby", "Company", "No sense", "Right now"}


def test_a_possessive_ending_a_name_at_a_list_s_opening_is_no_title(run) -> None:
    """ "the final track – Tom Alder’s, 'Silver Tide'": the tagger may read the curly "’s" as a verb;
    the name before it still owns the title."""
    facts = run("Ana Rivera returned to play the final track – Tom Alder’s, ‘Silver Tide’.")
    assert not any("Alder" in w.title for w in facts.works)


def test_the_owner_before_a_curly_possessive_is_no_title(run) -> None:
    """ "The Lantern Musical’s ‘Silver Tide’": the tagger may take the curly "’s" for a closing mark;
    the words before it still own the title after it."""
    facts = run("Ana Rivera sang at the final. She duetted with Tom Alder on their version of "
                "The Lantern Musical’s ‘Silver Tide’.")
    assert "Silver Tide" in {w.title for w in facts.works}
    assert not any(w.title.startswith("The Lantern Musical") for w in facts.works)


@pytest.mark.parametrize(
    ("text", "titles"),
    [
        # "classics like", "a new track called X"
        ("Ana Rivera closed the festival. Her set featured classics like Silver Tide and Harbor Lights, "
         "and a new track called Bluewater.", {"Silver Tide", "Harbor Lights", "Bluewater"}),
        # a title written with a capital inside it; the item after "and" ends the list
        ("The Copper Kites opened. Their set, featuring hits like iGlow and Imvula, had the crowd swaying.",
         {"iGlow", "Imvula"}),
        # "&" and a possessive inside a title
        ("Ana Rivera followed it with the powerful Nobody’s Soldier, then launched into Dinner & Diatribes.",
         {"Nobody’s Soldier", "Dinner & Diatribes"}),
        # a dash opens the list after its cue noun
        ("Ana Rivera played Leeds. She sailed through the hits – The Road We Know, In My Keeping, Harbor Lights.",
         {"The Road We Know", "In My Keeping", "Harbor Lights"}),
        # between commas a title the parser takes for a subject is still a title
        ("Ana Rivera played Leeds. Her hit singles such as Silver Tide, Bend Down Low, Blue Rain and Night "
         "Train proved her popular.", {"Silver Tide", "Bend Down Low", "Blue Rain", "Night Train"}),
        # a day's name inside a list after "like"
        ("Ana Rivera played Leeds. She sang originals like Sunday, Taking Things Slowly, and Harbor Lights.",
         {"Sunday", "Taking Things Slowly", "Harbor Lights"}),
        # a cue word the tagger reads as a verb, after a possessive
        ("Ana Rivera was next. Her hits like Come Down and Night Sky had everyone dancing.",
         {"Come Down", "Night Sky"}),
    ],
)
def test_unquoted_titles_of_a_set(run, text: str, titles: set[str]) -> None:
    assert {w.title for w in run(text).works} == titles


def test_a_title_in_another_language_keeps_its_small_words_in_lower_case(run) -> None:
    """ "Mayor que Yo", "Sala le Nna": a title in marks or in a list is no quotation for its small words."""
    facts = run("Tomas Vega played Santiago on Friday.\n\n“Mayor que Yo” (Greater Than I) and “Tu Boca” closed the "
                "night to cheers. He took the crowd down memory lane with songs like Sala le Nna and Mosutele.")
    assert {"Mayor que Yo", "Tu Boca", "Sala le Nna", "Mosutele"} <= {w.title for w in facts.works}
    assert not any("Mayor" in q.span.text for q in facts.quotes)


def test_a_day_after_a_title_s_small_word_is_not_the_title_s(run) -> None:
    titles = {w.title for w in run("Ana Rivera played Leeds. She sang Harbor Lights on Monday.").works}
    assert titles == {"Harbor Lights"}
