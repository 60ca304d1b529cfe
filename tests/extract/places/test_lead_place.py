"""The venue the top of an article puts its people at, and the one occasion it places."""

from __future__ import annotations

from kg.extract.model import Facts


def _place_of(facts: Facts, event_name: str) -> str | None:
    event = next(e for e in facts.events if e.name == event_name)
    return next((p.name for p in facts.places if p.key == event.location), None)


def test_an_audience_at_a_venue_puts_the_one_occasion_told_next_there(run) -> None:
    text = ("“Welcome back,” said conductor Mara Quinlan to members of the audience on Sunday at the Brindle Hall.\n\n"
            "She thanked them and prepared them for the program she conducted, the final concert of the season.")
    assert _place_of(run(text), "final concert") == "Brindle Hall"


def test_an_occasion_still_to_come_is_not_at_the_lead_venue(run) -> None:
    text = ("“Welcome back,” said conductor Mara Quinlan to members of the audience on Sunday at the Brindle Hall.\n\n"
            "She will conduct the final concert of the season in June.")
    assert _place_of(run(text), "final concert") is None


def test_an_occasion_told_far_below_the_lead_is_not_placed_by_it(run) -> None:
    text = ("“Welcome back,” said conductor Mara Quinlan to members of the audience on Sunday at the Brindle Hall. "
            "The hall was full. The program was long. Two pieces were new. "
            "She thanked them for the final concert of the season.")
    assert _place_of(run(text), "final concert") is None
