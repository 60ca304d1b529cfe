"""Quotation cases that news writing throws up: apostrophes in single-quoted quotations,
speakers named after their words, relatives and staff who speak, titles after a colon,
scare quotes, organisations and their spokespeople. The texts are written for these tests."""

from __future__ import annotations

import pytest

from kg.extract.text.marks import find_marked_spans

from .test_quotes import _said


# --- single marks and apostrophes ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "inside"),
    [
        # apostrophes between letters are never marks
        ("Minister: 'We don't have the money, and it's gone'", ["We don't have the money, and it's gone"]),
        # an elided "and", and a decade, inside a single-quoted quotation
        (
            "'Rock 'n' roll isn't dead, it's resting,' said Tom Baxter, a fan since the '90s.",
            ["Rock 'n' roll isn't dead, it's resting,"],
        ),
        ("‘Rock ’n’ roll never left,’ she said.", ["Rock ’n’ roll never left,"]),
        # a plural possessive inside: the real closing mark comes after punctuation
        ("'The fans' support was unreal,' she said.", ["The fans' support was unreal,"]),
        # "'em" and "'til" are words, not openings
        ("They gave 'em hell 'til dawn.", []),
        ("'I was born in '89,' she said.", ["I was born in '89,"]),
        # two short single-quoted titles stay two
        ("'Ember' and 'Tide' were hits.", ["Ember", "Tide"]),
        # single marks nested in double ones stay inside
        (
            '"My mother used to say \'never give up\', and I didn\'t," he said.',
            ["My mother used to say 'never give up', and I didn't,"],
        ),
    ],
)
def test_single_marks_and_apostrophes(text: str, inside: list[str]) -> None:
    assert [text[s.start : s.end] for s in find_marked_spans(text)] == inside


def test_single_quoted_quotation_with_apostrophes_gets_its_speaker(run) -> None:
    facts = run("'Rock 'n' roll isn't dead, it's just resting,' said guitarist Tom Baxter.")
    assert _said(facts) == [("Rock 'n' roll isn't dead, it's just resting,", "Tom Baxter")]


# --- speakers named after their words ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a lede that quotes first and names the speaker in the next sentence
        (
            "“I don’t think anyone expected it,” she said. Maria Delgado, 41, had just won the race.",
            [("I don’t think anyone expected it,", "Maria Delgado")],
        ),
        # a description that comes before the name
        (
            'The singer, 45, told the magazine she had "never felt freer." Lana Corvell, whose album '
            'arrives Friday, also said: "I stopped caring what people think."',
            [("never felt freer.", "Lana Corvell"), ("I stopped caring what people think.", "Lana Corvell")],
        ),
        # a participle before the cue
        (
            "Speaking to reporters, Maria Delgado said: “We will keep going until the end.”",
            [("We will keep going until the end.", "Maria Delgado")],
        ),
    ],
)
def test_speaker_named_after_the_words(run, text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _said(run(text)) == expected


def test_pronoun_of_an_unnamed_person_does_not_look_ahead(run) -> None:
    text = (
        "The minister was asked about the strike. “I won’t negotiate through the media,” she said.\n\n"
        "Union leader Carla Mendes was unimpressed."
    )
    assert _said(run(text)) == [("I won’t negotiate through the media,", None)]


@pytest.mark.parametrize(
    "text",
    [
        "Jane Hollis won the final on Sunday. “She trained every day for this,” said her father.",
        "Jane Hollis won the final on Sunday. “I’m so proud of her,” her manager said.",
        "Jane Hollis won the final on Sunday. Her coach said she had been “unstoppable all week.”",
    ],
)
def test_a_relative_or_staff_member_is_not_the_person_they_belong_to(run, text: str) -> None:
    ((_, speaker),) = _said(run(text))
    assert speaker is None


def test_named_relative_speaks_for_themselves(run) -> None:
    facts = run("“I’m so proud of my girl,” her mother, Linda Hayes, wrote on Facebook.")
    assert _said(facts) == [("I’m so proud of my girl,", "Linda Hayes")]


# --- descriptions that pick the right person ------------------------------------------------


def test_age_in_a_description_rules_out_a_person_of_another_age(run) -> None:
    text = (
        "Daniela Ferreira, 24, beat top seed Maren Holt in the final. Holt, the world No. 3, was gracious. "
        "“She played the big points better than me,” the 29-year-old told reporters."
    )
    assert _said(run(text)) == [("She played the big points better than me,", "Maren Holt")]


def test_the_band_is_the_band_not_its_label(run) -> None:
    text = (
        "Indie rockers Harrow Lane are splitting up, the band announced. Singer Tess Okonjo said it was mutual. "
        "According to their label, Tidewell Records, the band will tour in the autumn. "
        "“We’ll miss them,” the label said."
    )
    facts = run(text)
    assert _said(facts)[-1] == ("We’ll miss them,", "Tidewell Records")
    band = next(e for e in facts.entities if e.name == "Harrow Lane")
    assert band.kind == "group"


def test_a_name_inside_a_description_is_not_the_speaker(run) -> None:
    facts = run("The Grammy winner told a magazine: “I was terrified of that record.”")
    assert _said(facts) == [("I was terrified of that record.", None)]


def test_participle_cue_speaks_for_the_subject_of_the_sentence(run) -> None:
    text = (
        "Mayor Adaeze Okafor defended a budget that closes two libraries and freezes hiring, "
        "telling the council that the alternative was “a deficit for our grandchildren.”"
    )
    assert _said(run(text)) == [("a deficit for our grandchildren.", "Adaeze Okafor")]


def test_role_word_is_not_part_of_the_name(run) -> None:
    facts = run("“This is a choice,” said Councillor Brendan Fairley.")
    assert _said(facts) == [("This is a choice,", "Brendan Fairley")]


# --- organisations -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "“We don’t comment on rumours,” a Meridian Records spokesperson said.",
            [("We don’t comment on rumours,", "Meridian Records")],
        ),
        (
            "“The savings are modest,” according to the Port Ellery Finance Department.",
            [("The savings are modest,", "Port Ellery Finance Department")],
        ),
        (
            "A spokesperson for the Library Workers Union said members were “shocked and angry” on Tuesday.",
            [("shocked and angry", "Library Workers Union")],
        ),
        (
            "The promoter, Harbour Live Group, said the show sold out. “We are thrilled,” the company said.",
            [("We are thrilled,", "Harbour Live Group")],
        ),
    ],
)
def test_organisations_speak(run, text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _said(run(text)) == expected


# --- not quotations -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # a title after a colon or in apposition
        "Ellie Marsh has a new record out. Her new single: “Midnight Road”.",
        "The album’s lead track, “Paper Crowns”, is out on Friday.",
        # scare quotes, whatever their length
        "The so-called “rainy day fund,” which held $12 million, is empty.",
        # a nickname after "nicknamed"
        "The Portuguese player, nicknamed “The Wall” by fans, saved four match points.",
        # a programme after the noun it is an episode of
        "On Sunday’s broadcast of “Capitol Week Tonight,” Governor Lena Fairbanks said the plan was sound.",
    ],
)
def test_titles_scare_quotes_and_nicknames(run, text: str) -> None:
    assert run(text).quotes == ()


def test_a_programme_told_is_not_words_said(run) -> None:
    facts = run("“We will vote no,” Senator Dana Whitcomb told “Morning Desk,” adding that talks go on.")
    assert _said(facts) == [("We will vote no,", "Dana Whitcomb")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # words ending on a comma inside the marks: the name after them is the speaker, not a noun they modify
        ("Ana Rivera is also a “change agent,” Tomas Lindqvist said on Friday.", [("change agent", "Tomas Lindqvist")]),
        # lower-case words with a verb of saying over them
        ("Tomas Lindqvist said the council has overseen a “rigged” tender process.", [("rigged", "Tomas Lindqvist")]),
        # a title modifying the noun after it stays a title
        ("The band played the “Harbour Lights” singer’s favourite song.", []),
    ],
)
def test_words_said_where_a_title_would_modify_a_noun(run, text: str, expected: list[tuple[str, str]]) -> None:
    assert _said(run(text)) == expected


def test_short_partial_quote_in_reported_speech_is_a_quotation(run) -> None:
    facts = run("A label spokesperson said Ana Rivera was “very likely” to join the tour.")
    assert [q.span.text for q in facts.quotes] == ["very likely"]


# --- more cues ------------------------------------------------------------------------------


def test_a_quotation_after_a_title_in_marks_does_not_take_an_earlier_quotations_cue(run) -> None:
    facts = run(
        "Tomas Lindqvist wrote a tribute on his blog: “She was the best of us.” Her sister Ana Rivera gave a "
        "eulogy. She ended it with a line from the song “Harbour Lights”: “I told you I would always love you.”"
    )
    assert ("I told you I would always love you.", "Tomas Lindqvist") not in _said(facts)


def test_partial_quotes_joined_by_a_conjunction_share_the_cue(run) -> None:
    facts = run("Daniel Corliss told reporters he was “disappointed” but “not surprised” by the ruling.")
    assert _said(facts) == [("disappointed", "Daniel Corliss"), ("not surprised", "Daniel Corliss")]


def test_outlet_name_with_an_exclamation_mark_does_not_end_the_sentence(run) -> None:
    facts = run("Daniel Corliss’s rep told E! News: “He is focusing on his health right now.”")
    assert _said(facts) == [("He is focusing on his health right now.", "Daniel Corliss")]


def test_named_spokesperson_speaks_as_themselves(run) -> None:
    facts = run("“The senator has no comment,” said Ruiz’s spokesman, Ben Tate.")
    assert _said(facts) == [("The senator has no comment,", "Ben Tate")]


def test_second_half_of_a_split_quote_keeps_its_cue(run) -> None:
    text = (
        "Ana Ruiz and Tom Hale met on Friday. “You were always late,” said Ruiz, “though you did "
        "once bring coffee. Remember?” Hale laughed."
    )
    assert _said(run(text)) == [
        ("You were always late,", "Ana Ruiz"),
        ("though you did once bring coffee. Remember?", "Ana Ruiz"),
    ]


# --- pronouns and descriptions that must stay unresolved --------------------------------------


def test_pronoun_after_an_unrecognised_subject_is_left_alone(run) -> None:
    text = "“Nobody wanted this outcome,” Brekke said. “But here we are.” Dahl disagreed. “They wanted this,” she said."
    said = _said(run(text))
    assert said[-1] == ("They wanted this,", None)


def test_speaker_named_inside_the_quotation_is_someone_else(run) -> None:
    text = (
        "Nova Kessler is engaged to actor Reid Calloway. “She is generous,” Calloway, 33, told a magazine. "
        "The Grammy nominee continued, “Honestly, I never planned this. Then I met Reid.”"
    )
    said = dict(_said(run(text)))
    assert said["Honestly, I never planned this. Then I met Reid."] != "Reid Calloway"


def test_partial_quote_between_two_names_is_no_nickname(run) -> None:
    text = (
        "In Ottawa, the prime minister said Canada “will not be bullied.” "
        "Prime Minister Mark Lachance also said: “We will respond in kind.”"
    )
    assert [q.span.text for q in run(text).quotes] == ["will not be bullied.", "We will respond in kind."]


def test_cue_parsed_as_a_modifier_of_the_name(run) -> None:
    facts = run("“He is a liar,” Hadley posted on his own site early Saturday, referring to an adviser.")
    assert _said(facts) == [("He is a liar,", "Hadley")]


def test_party_word_heading_a_description_is_not_the_speaker(run) -> None:
    text = (
        "The 81-year-old Democrat, who has served in the House since 1987, said she would retire. "
        "“It is time for a new generation,” Rep. Nancy Whitford said."
    )
    facts = run(text)
    assert [e.name for e in facts.entities] == ["Nancy Whitford"]
    assert _said(facts) == [("It is time for a new generation,", "Nancy Whitford")]


def test_a_named_person_calling_something_a_word_is_quoted(run) -> None:
    facts = run("Mayor Eric Lind did not respond. Lind has previously called the plan “reckless.”")
    assert _said(facts) == [("reckless.", "Eric Lind")]


def test_headline_verb_is_not_part_of_the_name(run) -> None:
    text = (
        "Taylor Quinn Slams Critics: 'I Write My Own Songs'\n\n"
        "The singer hit back on Tuesday. “I write every word,” Taylor Quinn said."
    )
    assert _said(run(text)) == [("I Write My Own Songs", "Taylor Quinn"), ("I write every word,", "Taylor Quinn")]


def test_sentence_that_sets_up_the_quotation_gives_its_speaker(run) -> None:
    text = (
        "Marcus Hale was blunt when asked about the trade rumours.\n\n"
        "“I’m not going anywhere. I love this city.\n\n"
        "“Whatever you hear, ignore it.”\n\n"
        "The point guard is averaging 24 points a game."
    )
    assert _said(run(text)) == [
        ("I’m not going anywhere. I love this city.", "Marcus Hale"),
        ("Whatever you hear, ignore it.", "Marcus Hale"),
    ]


def test_a_sentence_that_does_not_set_up_words_gives_no_speaker(run) -> None:
    text = "Marcus Hale scored 30 points on Friday. “A great night for the whole city.”"
    assert _said(run(text)) == [("A great night for the whole city.", None)]


def test_pronoun_does_not_look_ahead_to_a_name_that_is_no_subject(run) -> None:
    text = "“Honestly? I cried,” she said of the moment, in an interview with Henry Blake published Thursday."
    assert _said(run(text)) == [("Honestly? I cried,", None)]


# --- wire-style attributions -------------------------------------------------------------------


def test_inverted_cue_parsed_as_an_adjective_on_the_name(run) -> None:
    text = (
        "The agency reported shelling near the border. “Commanders were sent to the front to prepare "
        "against the enemy’s possible counteractions”, added Norvik Press Agency."
    )
    ((_, speaker),) = _said(run(text))
    assert speaker == "Norvik Press Agency"


def test_an_outlet_named_post_is_no_cue(run) -> None:
    facts = run("As coauthor Colette Heald told The Daily Post, “The projections are quite consistent.”")
    assert _said(facts) == [("The projections are quite consistent.", "Colette Heald")]


def test_issuing_a_statement_sets_up_the_quotation(run) -> None:
    text = (
        "Senator John Corrigan issued a statement regarding the decision. "
        "“Like many Texans, I am disappointed with the agency’s choice.”"
    )
    assert _said(run(text)) == [("Like many Texans, I am disappointed with the agency’s choice.", "John Corrigan")]


def test_a_new_subject_between_two_quotations_ends_the_continuation(run) -> None:
    text = (
        "Yvette Cole said it was “damning that the office is not doing this already” after the "
        "refugee agency “recommended it two years ago.”"
    )
    assert _said(run(text)) == [
        ("damning that the office is not doing this already", "Yvette Cole"),
        ("recommended it two years ago.", None),
    ]


def test_a_title_as_subject_does_not_hide_the_speaker_from_she(run) -> None:
    text = (
        "Yvette Cole said her party backed the plan, which the United Nations High Commissioner for "
        "Refugees recommended.\n\nShe continued: “We have a common-sense plan to fast-track cases.”"
    )
    assert _said(run(text)) == [("We have a common-sense plan to fast-track cases.", "Yvette Cole")]


def test_a_description_before_a_name_is_not_an_anaphor(run) -> None:
    # "The security firm" is the name after it, not the company named before
    text = (
        "Vendrix says its browser is old. The security firm Secunia.com has said that 39 percent "
        "of its flaws are rated “highly critical”."
    )
    assert [speaker for _, speaker in _said(run(text))] == ["Secunia.com"]


def test_a_cue_after_the_quotation_wins_over_the_sentence_before(run) -> None:
    text = "Lena Vogt was excited about the tour. “See you in Berlin!” the poster read."
    assert _said(run(text)) == [("See you in Berlin!", None)]


def test_a_town_s_people_heading_a_description_is_not_the_speaker(run) -> None:
    text = (
        "Mara Quinlan closed the night. The 28-year-old Londoner, in a silver jacket, thanked the crowd. "
        "“This is the best night of my life,” she said."
    )
    facts = run(text)
    assert [e.name for e in facts.entities] == ["Mara Quinlan"]
    assert "Londoner" not in {speaker for _, speaker in _said(facts)}


# --- political reporting: retorts, colons, coordinated subjects, sources -------------------


def test_a_retort_with_its_particle_read_as_an_adverb_is_a_cue(run) -> None:
    text = "After the mayor mocked her budget at the forum, Mara Quinlan fired back, “Numbers clearly bore him.”"
    facts = run(text)
    assert _said(facts) == [("Numbers clearly bore him.", "Mara Quinlan")]
    assert [(q.cue, q.rule) for q in facts.quotes] == [("fired", "quote.cue-name")]


def test_the_main_clause_before_a_colon_gives_the_speaker_not_a_clause_inside_it(run) -> None:
    text = (
        "Mara Quinlan chaired the council for six years.\n\n"
        "Quinlan later regretted the way the vote went: “I ought to have read the report first.”"
    )
    assert _said(run(text)) == [("I ought to have read the report first.", "Mara Quinlan")]


def test_a_person_sharing_a_plural_verb_with_another_subject_stays_a_person(run) -> None:
    text = (
        "Mara Quinlan runs the Brindle Hall trust. Quinlan and the trust have insisted the roof is safe.\n\n"
        "“We checked every beam ourselves,” Quinlan told reporters."
    )
    facts = run(text)
    assert {e.name: e.kind for e in facts.entities}.get("Mara Quinlan") == "person"
    assert _said(facts) == [("We checked every beam ourselves,", "Mara Quinlan")]


def test_a_source_named_in_the_next_sentence_does_not_claim_a_closed_quotation(run) -> None:
    text = (
        "“The pier will be rebuilt by spring,” Mara Quinlan told the council. “Every plank of it.” "
        "Orla Park residents said they would help, according to local reports."
    )
    assert _said(run(text)) == [
        ("The pier will be rebuilt by spring,", "Mara Quinlan"),
        ("Every plank of it.", "Mara Quinlan"),
    ]


def test_a_name_and_its_description_before_the_cue_outrank_a_time_after_it(run) -> None:
    text = "“It is plainly true of the harbour,” Quinlan, a top harbour adviser, said Thursday morning on Lantern Radio’s late show."
    assert _said(run(text)) == [("It is plainly true of the harbour,", "Quinlan")]


def test_a_sentence_opening_on_the_verb_names_its_speaker_next(run) -> None:
    text = "Mara Quinlan reviewed the budget on Monday.\n\nSaid Quinlan: “There is no money left for the pier.”"
    assert _said(run(text)) == [("There is no money left for the pier.", "Mara Quinlan")]


def test_a_person_named_right_before_a_participle_of_saying_speaks(run) -> None:
    text = "The documentary opens with a clip of Mara Quinlan saying, “We will never close the pier.”"
    assert _said(run(text)) == [("We will never close the pier.", "Mara Quinlan")]


def test_words_a_person_applies_with_as_are_theirs_however_short(run) -> None:
    text = "Mara Quinlan runs the Brindle Hall trust. Quinlan dismissed the council's plan as “reckless” on Friday."
    assert _said(run(text)) == [("reckless", "Mara Quinlan")]


def test_a_name_known_by_as_is_still_no_quotation(run) -> None:
    assert _said(run("The old ferry was known as “the Barn” for years.")) == []



def test_proclaiming_is_a_verb_of_saying(run) -> None:
    facts = run("At the town meeting, Mara Quinlan loudly proclaimed in front of the cameras, “The pier stays open.”")
    assert [(q.cue, q.rule) for q in facts.quotes] == [("proclaimed", "quote.cue-name")]


def test_partial_quotes_joined_with_their_articles_share_the_cue(run) -> None:
    text = "In her weekly column Mara Quinlan wrote that the mayor was a “coward,” a “bully” and a “bore.”"
    assert _said(run(text)) == [("coward", "Mara Quinlan"), ("bully", "Mara Quinlan"), ("bore.", "Mara Quinlan")]


def test_a_participle_speaks_for_the_nearest_subject_above_when_the_quotation_holds_the_root(run) -> None:
    text = "Mara Quinlan was plainly unmoved by the council’s offer on Friday, telling the press, “Nobody here trusts that budget.”"
    assert _said(run(text)) == [("Nobody here trusts that budget.", "Mara Quinlan")]


def test_a_quotation_in_a_relative_clause_is_said_by_the_name_it_hangs_off(run) -> None:
    facts = run("Senator Mara Quinlan, who called the plan “a disaster,” left the hearing early.")
    assert _said(facts) == [("a disaster", "Mara Quinlan")]


def test_a_relative_clause_off_a_common_noun_names_no_speaker(run) -> None:
    facts = run("Dana Ruiz spoke first. The plan was backed by the mayor, who said it was “long overdue.”")
    assert _said(facts) == [("long overdue.", None)]


def test_the_name_after_an_inverted_cue_speaks_however_it_was_parsed(run) -> None:
    facts = run("“They are wasting time,” said Judiciary ranking Democrat Rosa Delgado (D-Calif.).")
    assert _said(facts) == [("They are wasting time,", "Rosa Delgado")]


def test_a_clause_before_said_is_no_quotation_cue(run) -> None:
    facts = run("Nora Vance, who quit over her distaste for the mayor, said Latino voters want jobs.")
    assert [e.name for e in facts.entities] == ["Nora Vance"]


def test_words_reported_in_an_adverbial_clause_are_its_own_subjects(run) -> None:
    text = ("“He did it again,” Dana Ruiz wrote after Mara Quinlan argued at the second hearing that "
            "“nobody would have saved the plant.”")
    assert _said(run(text)) == [("He did it again,", "Dana Ruiz"), ("nobody would have saved the plant.", "Mara Quinlan")]


def test_words_in_reported_speech_stay_the_reporter_s_past_a_participle(run) -> None:
    text = ("Ivo Brandt, a data analyst, backed both hires. “It is valuable,” said Brandt, explaining he worked with "
            "the two of them for years: “They are outstanding with data.”")
    assert _said(run(text)) == [("It is valuable,", "Ivo Brandt"), ("They are outstanding with data.", "Ivo Brandt")]


def test_a_reporter_named_in_an_aside_keeps_every_fragment_of_the_sentence(run) -> None:
    text = "Senator Joe Pell, Mara Quinlan said, had sat in the chamber for “a thousand years” and passed “hundreds of bills.”"
    assert _said(run(text)) == [("a thousand years", "Mara Quinlan"), ("hundreds of bills.", "Mara Quinlan")]


def test_a_second_verb_of_saying_parsed_into_the_first_one_s_clause_shares_its_subject(run) -> None:
    text = ("Mayor Ana Ortiz rejected the criticism from Tom Reyes. Ortiz said the move was made by the "
            "commissioner and said, “Who are you going to trust on security?”")
    assert _said(run(text)) == [("Who are you going to trust on security?", "Ana Ortiz")]


def test_words_that_hold_their_own_named_cue_are_not_given_to_the_person_in_focus(run) -> None:
    # the closing mark of the first half is missing, so the cue sits inside one long quotation
    text = ("Among the guests was the designer Tomas Varga, who chose the flowers.\n"
            "“When so many great halls are closed, we are lucky – said the hall’s director Ilse Brandt – "
            "“This season is a small miracle.”\n")
    assert [speaker for _, speaker in _said(run(text))] == [None]


def test_a_name_before_its_party_and_state_in_brackets_speaks(run) -> None:
    text = ("Late on Friday at the county party dinner Sen. Mara Quinlan (D-Ore.) said the new budget "
            "was a “slow disaster” for rural schools.")
    assert _said(run(text)) == [("slow disaster", "Mara Quinlan")]


def test_words_reported_with_that_before_them_are_not_the_later_verb_s(run) -> None:
    text = ("But even as Dana Ruiz claimed on Monday that “the plant never lost money,” one of the "
            "former managers said the claim was wrong.")
    assert _said(run(text)) == [("the plant never lost money", "Dana Ruiz")]


def test_going_on_to_do_something_is_no_verb_of_saying(run) -> None:
    text = "Ivo Brandt went on to promote “Harbor Nights,” and said the series was “his best work yet.”"
    assert _said(run(text)) == [("his best work yet.", "Ivo Brandt")]


def test_an_infinitive_of_saying_does_not_hide_the_reporter_of_the_sentence(run) -> None:
    text = ("Senator Ana Ruiz says that voters want a leader to counter the threats from abroad, but instead "
            "Governor Tom Reyes is giving them “speeches, excuses, and attempts to dodge the question.”")
    assert _said(run(text)) == [("speeches, excuses, and attempts to dodge the question.", "Ana Ruiz")]
