"""The discourse model: decay on narration, the margin, and the centering preference."""

from __future__ import annotations

from kg.extract.people.discourse import W_OTHER, W_QUOTED, W_SUBJECT, Focus, Salience


def test_narration_decays_salience_and_quoted_speech_does_not():
    s: Salience[str] = Salience()
    s.mention("ana", W_SUBJECT)
    s.next_sentence(narration=False)
    assert s.of("ana") == W_SUBJECT
    s.next_sentence()
    assert s.of("ana") < W_SUBJECT


def test_the_clear_winner_is_picked_and_a_close_call_is_left_open():
    s: Salience[str] = Salience()
    s.mention("ana", W_SUBJECT)
    s.mention("ben", W_QUOTED)
    assert s.pick(s.ranked(["ana", "ben"])) == "ana"
    tied: Salience[str] = Salience()
    tied.mention("ana", W_OTHER)
    tied.mention("ben", W_OTHER)
    assert tied.pick(tied.ranked(["ana", "ben"])) is None


def test_the_last_sentences_subject_wins_a_close_call():
    s: Salience[str] = Salience()
    s.mention("ana", W_SUBJECT, subject=True)
    s.mention("ben", W_OTHER)
    s.mention("ben", W_OTHER)
    s.next_sentence()
    # ben is as salient as ana, but ana was the subject: "She ..." continues with ana
    assert s.pick(s.ranked(["ana", "ben"])) == "ana"


def test_a_faint_subject_does_not_beat_a_dominant_entity():
    s: Salience[str] = Salience()
    s.mention("ben", W_SUBJECT * 4)
    s.mention("ana", W_QUOTED * 2, subject=True)
    assert s.pick(s.ranked(["ana", "ben"])) == "ben"


def test_focus_answers_per_sentence_and_only_for_accepted_keys():
    focus = Focus()
    focus.record({"ana": 2.0, "tour": 3.0})
    focus.record({"ana": 1.0, "ben": 0.9})
    assert focus.most_salient(0, lambda k: k != "tour") == "ana"
    assert focus.most_salient(0, lambda k: True) == "tour"
    assert focus.most_salient(1, lambda k: True) is None  # too close to call
    assert focus.most_salient(5, lambda k: True) is None


def test_of_two_subjects_the_main_clauses_wins():
    s: Salience[str] = Salience()
    # "Ana pressed on, to make Ben answer." then "'...,' she said": Ana, not Ben
    s.mention("ana", W_SUBJECT, subject=True, main=True)
    s.mention("ben", W_SUBJECT, subject=True)
    s.next_sentence()
    assert s.pick(s.ranked(["ana", "ben"])) == "ana"
    tied: Salience[str] = Salience()
    tied.mention("ana", W_SUBJECT, subject=True)
    tied.mention("ben", W_SUBJECT, subject=True)
    tied.next_sentence()
    assert tied.pick(tied.ranked(["ana", "ben"])) is None


def test_this_sentences_main_subject_before_the_last_ones():
    s: Salience[str] = Salience()
    s.mention("ben", W_SUBJECT, subject=True, main=True)
    s.next_sentence()
    # "Ana weighed in, telling a paper, '...,' he said": the subject of this sentence
    s.mention("ana", W_SUBJECT, subject=True, main=True)
    assert s.pick(s.ranked(["ana", "ben"])) == "ana"
