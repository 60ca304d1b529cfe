"""A word for someone by what they do, glued in title case to the front of a name ("Newcomer Ama
Boateng"), describes the person and is no part of the name. The names are invented."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('Newcomer Efua Boateng won the prize on Friday. "I did not expect it," Boateng said.', "Efua Boateng"),
        ('Trainee Kofi Asante sang the closing song. "I was shaking," Asante said.', "Kofi Asante"),
        ('Café Owner Lise Aubert opened her doors to the band. "We love music," Aubert said.', "Lise Aubert"),
    ],
)
def test_a_descriptor_before_a_name_is_no_part_of_it(run, text: str, name: str) -> None:
    assert [e.name for e in run(text).entities if e.kind == "person"] == [name]


def test_a_name_the_text_uses_again_keeps_its_first_word(run) -> None:
    # "Baxter" is a word of the name: the text calls him by it alone
    text = 'Baxter Efua Boateng won the prize. "I did not expect it," Baxter said.'
    assert "Baxter Efua Boateng" in {e.name for e in run(text).entities}
