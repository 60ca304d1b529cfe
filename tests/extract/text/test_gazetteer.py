"""The gazetteer: places from GeoNames and kg's alias list, given names from the US census."""

from __future__ import annotations

from kg.extract.text.gazetteer import given_name_gender, is_demonym, is_given_name, place_kind, untagged_place


def test_places_get_their_kind_with_the_most_inclusive_winning():
    assert place_kind("France") == "country"
    assert place_kind("Texas") == "region"
    assert place_kind("Lagos") == "city"
    assert place_kind("Paris") == "city"


def test_news_spellings_come_from_the_alias_list():
    assert place_kind("the U.S.") == "country"
    assert place_kind("Britain") == "country"


def test_accents_and_case_do_not_matter():
    assert place_kind("ZÜRICH") == place_kind("Zurich") == "city"


def test_a_bare_name_is_a_place_only_when_big_enough_to_be_meant():
    """A town name alone ("Springfield") is too often a surname or a street to be taken untagged."""
    assert untagged_place("Lagos") == "city"
    assert untagged_place("Springfield") is None
    assert untagged_place("Texas") == "region"


def test_given_names_with_the_gender_that_dominates():
    assert given_name_gender("Mary") == "f"
    assert given_name_gender("John") == "m"
    assert is_given_name("Taylor") and given_name_gender("Taylor") is None
    assert not is_given_name("Star")


def test_the_people_of_a_well_known_place_by_its_name():
    assert is_demonym("Londoner") and is_demonym("Bostonians") and is_demonym("Parisian")
    assert not is_demonym("Turner") and not is_demonym("Carter") and not is_demonym("london")
