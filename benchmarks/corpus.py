"""A generator of fictional music-news articles for benchmarks: any size, deterministic by seed.

Every article is assembled from templates written for kg and from invented name lists:
people, bands, songs, albums, venues, festivals and tours are made up; cities are
well-known ones, as a gazetteer would list them. Articles carry what real news carries
and what kg's extractors look for: direct quotations with varied cues (said, told,
added, wrote, "according to", colon introductions) and speakers (full names, surnames,
pronouns, epithets such as "the 31-year-old singer"), performances of songs at events
and venues, dates in several shapes, setlists, photo captions and the odd non-breaking
space. No sentence comes from a real article.

Article ``i`` of seed ``s`` depends only on ``(s, i)``, so a corpus of 20,000 articles
starts with the corpus of 2,000. Run:

    python benchmarks/corpus.py --n 2000 --seed 1 -o /tmp/corpus.jsonl
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

_FIRST = {
    "she": (
        "Mara", "Elsie", "Priya", "Ines", "Saoirse", "Lena", "Amara", "Noor", "Talia", "Freya",
        "Maren", "Yusra", "Odette", "Carys", "Bea", "Rosalind", "Mei", "Zuzana", "Ayo", "Greta",
    ),
    "he": (
        "Tomas", "Jonah", "Kofi", "Dario", "Ewan", "Rafael", "Idris", "Casimir", "Felix", "Arlo",
        "Matteo", "Bram", "Osei", "Lucan", "Teodor", "Hollis", "Niall", "Ravi", "Silas", "Emeka",
    ),
}
_LAST = (
    "Quillfeather", "Reyne", "Braddock", "Akinde", "Penhallow", "Coombe", "Varga", "Lindqvist",
    "Okonkwo-Hale", "Marchetti", "Thornbury", "Castellan", "Whitlow", "Adeyemi", "Sorensen",
    "Kallas", "Fairweather", "Moreau", "Brannigan", "Ashdown", "Delacroix", "Haverford",
    "Nakamura-Price", "Oduya", "Pembrook", "Rask", "Sallow", "Tregarth", "Valenti", "Wexley",
    "Yardley", "Zielinski", "Calloway", "Dunmore", "Esterhazy", "Galloway", "Holm", "Ivers",
)
_BAND_ADJ = (
    "Velvet", "Copper", "Hollow", "Paper", "Silver", "Quiet", "Electric", "Wandering", "Golden",
    "Midnight", "Northern", "Salt", "Broken", "Lucky", "Iron", "Neon",
)
_BAND_NOUN = (
    "Orchards", "Lanes", "Lanterns", "Harbours", "Foxes", "Engines", "Sparrows", "Rivers",
    "Satellites", "Mirrors", "Tides", "Parades", "Wolves", "Kites", "Arcades", "Ferries",
)
_TITLE_ADJ = (
    "Glass", "Northern", "Copper", "Slow", "Paper", "Blue", "Bright", "Last", "Quiet", "Wild",
    "Crooked", "Open", "Borrowed", "Late", "Burning", "Distant",
)
_TITLE_NOUN = (
    "Harbour", "Static", "Rain", "Tidewater", "Summer", "Letters", "Highway", "Lanterns",
    "Hymns", "Morning", "Weather", "Motel", "Horizon", "Arcade", "Window", "Signal", "River",
    "Kingdom", "Satellite", "Ballroom",
)
_PLACE_STEM = (
    "Harbourline", "Marlow", "Vale Street", "Ashton", "Kestrel", "Brightwater", "Fenwick",
    "Greyfriars", "Halcyon", "Ironbridge", "Juniper", "Larkspur", "Mercer", "Northgate",
    "Oakhaven", "Pellham", "Redmere", "Stonecross", "Thistle", "Wrenfield",
)
_VENUE_WORD = ("Arena", "Hall", "Ballroom", "Theatre", "Stadium", "Amphitheater", "Pavilion", "Auditorium", "Club")
_CITIES = (
    ("Glasgow", "Scotland"), ("Dublin", "Ireland"), ("Leeds", "England"), ("Lisbon", "Portugal"),
    ("Chicago", "Illinois"), ("Austin", "Texas"), ("Toronto", "Canada"), ("Melbourne", "Australia"),
    ("Berlin", "Germany"), ("Manchester", "England"), ("Nashville", "Tennessee"), ("Oslo", "Norway"),
    ("Seattle", "Washington"), ("Montreal", "Canada"), ("Cardiff", "Wales"), ("Atlanta", "Georgia"),
)
_ROLES = {
    "she": ("singer", "songwriter", "frontwoman", "guitarist", "pop star", "rapper", "pianist", "bassist"),
    "he": ("singer", "songwriter", "frontman", "guitarist", "pop star", "rapper", "pianist", "drummer"),
}
_OFFICIALS = ("festival director", "promoter", "spokesperson", "venue manager", "tour manager", "label head")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)
_ORDINALS = ("second", "third", "fourth", "fifth", "10th", "12th", "15th", "20th", "25th")
_QUOTES_ARTIST = (
    "We started this band in a garage four streets from here",
    "Every one of you is the reason we kept going",
    "This song still feels like a letter I never posted",
    "I wrote it on a night bus and finished it before my stop",
    "Playing {venue} was the thing I dreamed about as a kid",
    "It's nearly finished, we just need to stop touring long enough to mix it",
    "{city}, you have been louder than any city on this tour",
    "I didn't think anyone would still want to hear '{song}' after all these years",
    "We rehearsed for six weeks and threw half of it away on the first night",
    "Honestly, I was terrified of following a band that good",
    "There's a version of this record that nobody will ever hear, and that's fine",
    "My grandmother taught me the chords, so every show is a little bit hers",
    "We wanted the room to feel small even when it was full",
    "I'm proud of it. I'm tired, but I'm proud of it",
    "The new songs are louder and stranger, and I think people are ready",
    "When the crowd sang the chorus back, I forgot the words for a second",
    "Touring is the best job in the world for about three weeks at a time",
    "I don't write about heartbreak any more. I write about weather",
)
_QUOTES_OFFICIAL = (
    "We wanted a bill that felt like a proper night out, not a playlist",
    "Nobody should have to walk home across a field at midnight",
    "Tickets went faster than we expected, and we're adding a second night",
    "Extra trains will run from the city centre after each show",
    "The stage was rebuilt after last year's storm and it's twice the size now",
    "We have asked fans not to camp outside the venue before doors open",
    "{performer} were the first name on the whiteboard",
    "Safety comes first, and the show will start an hour later than planned",
    "This is the biggest event the venue has hosted since it reopened",
    "We learned a lot from last year, and we listened to every complaint",
)
_PARTIAL = (
    "still a letter I never posted", "the loudest room I have ever stood in", "honestly a bit terrifying",
    "loud, long and mostly happy", "a song about weather, not heartbreak", "the one we always end on",
)
_CAPTIONS = (
    "{name} performs at the {venue} in {city} on {day}",
    "{name} on stage during the {event}",
    "{band} at the {venue}",
    "Photo: {name} / Ledger archive",
    "{name} and {other} backstage at the {event} in {year}",
)


@dataclass
class _Cast:
    """Who and what one article is about: every name is drawn once, then reused."""

    rng: random.Random
    people: list[tuple[str, str, str, int]] = field(default_factory=list)  # name, pronoun, role, age
    band: str = ""
    songs: list[str] = field(default_factory=list)
    album: str = ""
    venue: str = ""
    city: str = ""
    region: str = ""
    event: str = ""
    official: tuple[str, str, str] = ("", "", "")  # name, pronoun, title
    official_age: int = 50

    @classmethod
    def draw(cls, rng: random.Random) -> _Cast:
        cast = cls(rng)
        surnames = rng.sample(_LAST, 4)
        for surname in surnames[:3]:
            pronoun = rng.choice(("she", "he"))
            cast.people.append(
                (f"{rng.choice(_FIRST[pronoun])} {surname}", pronoun, rng.choice(_ROLES[pronoun]), rng.randint(19, 67))
            )
        official_pronoun = rng.choice(("she", "he"))
        cast.official = (
            f"{rng.choice(_FIRST[official_pronoun])} {surnames[3]}",
            official_pronoun,
            rng.choice(_OFFICIALS),
        )
        cast.official_age = rng.randint(28, 64)
        cast.band = rng.choice(("The ", "")) + f"{rng.choice(_BAND_ADJ)} {rng.choice(_BAND_NOUN)}"
        songs = dict.fromkeys(_title(rng) for _ in range(rng.randint(5, 9)))
        while len(songs) < 4:  # titles can repeat; a review names four different songs
            songs[_title(rng)] = None
        cast.songs = list(songs)
        cast.album = _title(rng)
        cast.venue = f"{rng.choice(_PLACE_STEM)} {rng.choice(_VENUE_WORD)}"
        cast.city, cast.region = rng.choice(_CITIES)
        cast.event = _event_name(rng, cast.city, cast.people[0][0], rng.choice(("festival", "tour", "residency")))
        return cast

    @property
    def lead(self) -> tuple[str, str, str, int]:
        return self.people[0]


def _event_name(rng: random.Random, city: str, lead: str, kind: str) -> str:
    """An invented festival, tour or residency name."""
    if kind == "festival":
        return rng.choice((f"{rng.choice(_PLACE_STEM)} Festival", f"{city} Jazz Festival", f"{rng.choice(_TITLE_ADJ)} Fields Festival"))
    if kind == "tour":
        return f"{rng.choice(_TITLE_ADJ)} {rng.choice(_TITLE_NOUN)} Tour"
    return f"{lead} Residency"


def _title(rng: random.Random) -> str:
    """An invented song or album title."""
    shape = rng.randrange(4)
    adj, noun, other = rng.choice(_TITLE_ADJ), rng.choice(_TITLE_NOUN), rng.choice(_TITLE_NOUN)
    if shape == 0:
        return f"{adj} {noun}"
    if shape == 1:
        return f"{noun} of the {other}"
    if shape == 2:
        return f"The {adj} {noun}"
    return noun


def _marks(rng: random.Random) -> tuple[str, str]:
    """Open and close marks: mostly curly double quotes, sometimes straight ones."""
    return ("\u201c", "\u201d") if rng.random() < 0.75 else ('"', '"')


def _song(rng: random.Random, title: str) -> str:
    """A song title in quotation marks, as news prints it."""
    return f"\u201c{title}\u201d" if rng.random() < 0.85 else f'"{title}"'


def _fill(rng: random.Random, cast: _Cast, template: str) -> str:
    """Fill a quotation template's slots from the cast."""
    return template.format(
        venue=f"the {cast.venue}", city=cast.city, song=rng.choice(cast.songs), performer=cast.band
    )


def _subject(rng: random.Random, person: tuple[str, str, str, int], first: bool) -> str:
    """How a speaker is named: full name at first, then surname, pronoun or epithet."""
    name, pronoun, role, age = person
    if first:
        return name
    choice = rng.randrange(4)
    if choice == 0:
        return name.split()[-1]
    if choice == 1:
        return pronoun
    if choice == 2:
        return f"the {age}-year-old {role}"
    return f"the {role}"


def _cap(text: str) -> str:
    """``text`` with its first letter upper-cased, for a sentence start."""
    return text[:1].upper() + text[1:]


def _quote_paragraph(rng: random.Random, cast: _Cast, person: tuple[str, str, str, int], first: bool,
                     pool: tuple[str, ...]) -> str:
    """One paragraph with a quotation, its cue and speaker placed one of several ways."""
    text = _fill(rng, cast, rng.choice(pool))
    more = _fill(rng, cast, rng.choice(pool))
    open_, close = _marks(rng)
    who = _subject(rng, person, first)
    cue = rng.choice(("said", "told the crowd", "told the Ledger", "added", "explained", "recalled",
                      "wrote on Instagram", "said in a statement", "admitted", "joked", "told reporters"))
    shape = rng.randrange(6)
    if shape == 0:
        # Quote first, then speaker and cue.
        return f"{open_}{text},{close} {who} {cue}."
    if shape == 1:
        # Inverted cue: "..., said Name."
        return f"{open_}{text},{close} said {person[0]}."
    if shape == 2:
        # Speaker first, colon introduction.
        return f"{_cap(who)} {rng.choice(('added', 'said', 'wrote', 'explained'))}: {open_}{text}. {more}.{close}"
    if shape == 3:
        # Split quotation around the cue.
        return f"{open_}{text},{close} {who} {cue}. {open_}{more}.{close}"
    if shape == 4:
        # Attribution by "according to".
        return f"{open_}{text},{close} according to {person[0]}."
    # Partial quotation inside reported speech.
    return (f"{_cap(who)} said the song was {open_}{rng.choice(_PARTIAL)}{close} and that the band would "
            f"{rng.choice(('return next year', 'take a break', 'record in the spring'))}.")


def _date(rng: random.Random, published: dt.date) -> str:
    """A date as news writes it: a weekday, a month and day, or a full date."""
    shape = rng.randrange(4)
    day = published + dt.timedelta(days=rng.randint(-20, 60))
    if shape == 0:
        return f"on {_DAYS[day.weekday()]}"
    if shape == 1:
        return f"on {_MONTHS[day.month - 1]} {day.day}"
    if shape == 2:
        return f"on {_MONTHS[day.month - 1]} {day.day}, {day.year}"
    return rng.choice(("last week", "next month", "this weekend", f"in {_MONTHS[day.month - 1]}"))


def _nbsp(rng: random.Random, text: str) -> str:
    """Now and then a non-breaking space, as copied web text has."""
    if rng.random() < 0.3:
        words = text.split(" ")
        i = rng.randrange(1, max(2, len(words)))
        return " ".join(words[:i]) + "\u00a0" + " ".join(words[i:]) if i < len(words) else text
    return text


def _review(rng: random.Random, cast: _Cast, published: dt.date) -> tuple[str, list[str]]:
    """A concert review: opening, songs performed, quotations, a guest, a setlist."""
    name, pronoun, role, age = cast.lead
    guest = cast.people[1]
    songs = cast.songs
    cast.event = _event_name(rng, cast.city, name, rng.choice(("tour", "residency")))
    title = f"{cast.band} bring the {cast.event} home to {cast.city}"
    paras = [
        f"{name} walked onto the {cast.venue} stage in {cast.city} {_date(rng, published)} to a roar that "
        f"shook the rafters, and {cast.band} never let the noise die down.",
        f"The band opened with {_song(rng, songs[0])}, the title track of their {rng.randint(2005, 2023)} album, "
        f"before tearing into {_song(rng, songs[1])} and a slowed-down {_song(rng, songs[2])}. "
        f"The show was the {rng.choice(('last', 'first', 'third'))} night of the {cast.event}.",
        _quote_paragraph(rng, cast, cast.lead, True, _QUOTES_ARTIST),
        f"The {age}-year-old {role}, who grew up in the {cast.city} suburbs, dedicated {_song(rng, songs[3])} "
        f"to {rng.choice(('her late grandmother', 'his late father', 'an old friend', 'the crew'))}.",
        _quote_paragraph(rng, cast, cast.lead, False, _QUOTES_ARTIST),
        f"Midway through the set, {guest[0]} of {rng.choice(_BAND_ADJ)} {rng.choice(_BAND_NOUN)} joined the band to sing "
        f"{_song(rng, songs[-1])}, a song {guest[1]} and {name.split()[-1]} wrote together in {rng.randint(2012, 2024)}.",
        _quote_paragraph(rng, cast, guest, False, _QUOTES_ARTIST),
        f"{cast.people[2][0]} kept the encore tight, and the band closed with an acoustic {_song(rng, songs[0])} "
        f"while the audience sang the chorus back at them.",
    ]
    if rng.random() < 0.7:
        paras.append("Setlist: " + ", ".join(_song(rng, s) for s in songs) + ".")
    return title, paras


def _festival(rng: random.Random, cast: _Cast, published: dt.date) -> tuple[str, list[str]]:
    """A festival line-up announcement: the event, the venue, the acts, an organiser's words."""
    official, o_pronoun, o_title = cast.official
    lead = cast.lead
    cast.event = _event_name(rng, cast.city, lead[0], "festival")
    title = f"{cast.event} adds {cast.band} and {lead[0]} to its bill"
    paras = [
        f"The {cast.event} will return to the {cast.venue} in {cast.city} {_date(rng, published)} with "
        f"{cast.band} and {lead[0]} among its headliners, according to organisers.",
        f"The {rng.choice(('three-day', 'two-day', 'weekend-long'))} event, which sold out in under an hour last year, "
        f"runs from {_MONTHS[published.month % 12]} {rng.randint(1, 10)} to {_MONTHS[published.month % 12]} {rng.randint(11, 28)}.",
        _quote_paragraph(rng, cast, (official, o_pronoun, o_title, cast.official_age), True, _QUOTES_OFFICIAL),
        f"{lead[0].split()[-1]}, whose single {_song(rng, cast.songs[0])} topped the independent chart in "
        f"{rng.choice(_MONTHS)}, will close the {rng.choice(('Riverside', 'Main', 'Garden', 'Tent'))} Stage on the "
        f"{rng.choice(('Friday', 'Saturday', 'Sunday'))}.",
        _quote_paragraph(rng, cast, lead, False, _QUOTES_ARTIST),
        f"Organisers have also promised a tribute to the late folk singer {cast.people[2][0]}, whose album "
        f"{_song(rng, cast.album)} turns {rng.choice((20, 25, 30, 40))} this year. A choir from {cast.city} will "
        f"perform {_song(rng, cast.songs[1])} and {_song(rng, cast.songs[2])} on the opening night.",
        _quote_paragraph(rng, cast, (official, o_pronoun, o_title, cast.official_age), False, _QUOTES_OFFICIAL),
    ]
    return title, paras


def _tour(rng: random.Random, cast: _Cast, published: dt.date) -> tuple[str, list[str]]:
    """A tour announcement: dates, venues, cities, a new album, the band's words."""
    lead = cast.lead
    stops = rng.sample(_CITIES, 4)
    venues = [f"{rng.choice(_PLACE_STEM)} {rng.choice(_VENUE_WORD)}" for _ in stops]
    cast.event = _event_name(rng, cast.city, lead[0], "tour")
    title = f"{cast.band} announce the {cast.event}"
    paras = [
        f"{cast.band} will play {rng.choice(('twelve', 'twenty', 'nine', 'fifteen'))} dates this "
        f"{rng.choice(('autumn', 'spring', 'summer', 'winter'))}, the band announced {_date(rng, published)}, "
        f"starting at the {venues[0]} in {stops[0][0]} and ending at the {venues[-1]} in {stops[-1][0]}.",
        f"The {cast.event} follows the release of their album {_song(rng, cast.album)}, which "
        f"{rng.choice(('entered the chart at number two', 'was recorded in a week', 'came out in March'))}.",
        _quote_paragraph(rng, cast, lead, True, _QUOTES_ARTIST),
        "The other dates are " + "; ".join(f"the {v} in {c}, {r}" for v, (c, r) in zip(venues[1:-1], stops[1:-1])) + ".",
        f"The band will play {_song(rng, cast.songs[0])} live for the first time, {lead[0].split()[-1]} said, "
        f"along with {_song(rng, cast.songs[1])}, which they have not performed since {rng.randint(2010, 2022)}.",
        _quote_paragraph(rng, cast, cast.people[1], True, _QUOTES_ARTIST),
    ]
    return title, paras


def _awards(rng: random.Random, cast: _Cast, published: dt.date) -> tuple[str, list[str]]:
    """An award-show report: winners, a performance, acceptance speeches."""
    lead, second = cast.lead, cast.people[1]
    ceremony = f"{rng.choice(_PLACE_STEM)} Music Awards"
    title = f"{lead[0]} wins big at the {ceremony}"
    paras = [
        f"{lead[0]} took home {rng.choice(('three', 'four', 'two'))} prizes at the {rng.choice(_ORDINALS)} annual "
        f"{ceremony} at the {cast.venue} in {cast.city} {_date(rng, published)}, including album of the year for "
        f"{_song(rng, cast.album)}.",
        _quote_paragraph(rng, cast, lead, False, _QUOTES_ARTIST),
        f"{second[0]} opened the ceremony with {_song(rng, cast.songs[0])}, and {cast.band} performed "
        f"{_song(rng, cast.songs[1])} with a string section.",
        _quote_paragraph(rng, cast, second, True, _QUOTES_ARTIST),
        f"The {lead[3]}-year-old, who was nominated for the first time in {rng.randint(2008, 2020)}, thanked "
        f"{cast.people[2][0]}, {'her' if lead[1] == 'she' else 'his'} producer.",
        _quote_paragraph(rng, cast, lead, False, _QUOTES_ARTIST),
    ]
    return title, paras


def _interview(rng: random.Random, cast: _Cast, published: dt.date) -> tuple[str, list[str]]:
    """A profile built around one artist's quotations and a residency."""
    lead = cast.lead
    residency = f"{lead[0].split()[-1]} at the {cast.venue}"
    title = f"{lead[0]} on {cast.album}, stage fright and a year in {cast.city}"
    paras = [
        f"{lead[0]} has spent most of the past year in {cast.city}, where {lead[1]} began a residency, "
        f"{residency}, {_date(rng, published)}.",
        _quote_paragraph(rng, cast, lead, False, _QUOTES_ARTIST),
        f"The residency draws on {_song(rng, cast.album)}, the {lead[2]}'s {rng.choice(('fourth', 'second', 'fifth'))} "
        f"album, and on older songs such as {_song(rng, cast.songs[0])} and {_song(rng, cast.songs[1])}.",
        _quote_paragraph(rng, cast, lead, False, _QUOTES_ARTIST),
        f"Asked about {cast.band}, the band {lead[1]} left in {rng.randint(2009, 2019)}, {lead[0].split()[-1]} was careful.",
        _quote_paragraph(rng, cast, lead, False, _QUOTES_ARTIST),
        f"{cast.people[1][0]}, who produced the record, said the sessions were {_song(rng, rng.choice(_PARTIAL))}.",
    ]
    return title, paras


def _extras(rng: random.Random, cast: _Cast, published: dt.date) -> list[str]:
    """Background paragraphs any article may carry: history, tickets, more performances and quotations."""
    lead, other = cast.lead, cast.people[1]
    official, o_pronoun, o_title = cast.official
    pool = [
        f"{cast.band} formed in {cast.city} in {rng.randint(1998, 2018)} and released their debut album, "
        f"{_song(rng, _title(rng))}, two years later. The record was made in a converted chapel on a budget "
        f"the band still jokes about.",
        f"Tickets go on sale {_date(rng, published)} at 10am, with a limit of four per customer. A share of every "
        f"ticket will go to a fund for grassroots venues, the promoters said.",
        f"{lead[0]} performed {_song(rng, rng.choice(cast.songs))} at the {cast.venue} {_date(rng, published)}, "
        f"the first time the song had been played live since its release.",
        f"{other[0]} sang {_song(rng, rng.choice(cast.songs))} with {cast.band} at the {cast.event} in {cast.city}, "
        f"a moment many in the crowd filmed on their phones.",
        f"The {cast.venue}, which holds about {rng.choice(('2,000', '4,500', '12,000', '21,000'))} people, reopened "
        f"in {rng.randint(2015, 2023)} after a long refurbishment. It sits near the river in {cast.city}, {cast.region}.",
        _quote_paragraph(rng, cast, (official, o_pronoun, o_title, cast.official_age), True, _QUOTES_OFFICIAL),
        _quote_paragraph(rng, cast, other, False, _QUOTES_ARTIST),
        _quote_paragraph(rng, cast, lead, False, _QUOTES_ARTIST),
        f"Critics were divided. One review called the new material {_song(rng, rng.choice(_PARTIAL))}, while "
        f"another praised the band for refusing to play the hits in order.",
        f"{cast.people[2][0]}, who has played bass on every record since {rng.randint(2008, 2020)}, said the "
        f"rehearsals for the {cast.event} had taken place in a school hall outside {cast.city}.",
        f"By {rng.choice(_FIRST['she'] + _FIRST['he'])} {rng.choice(_LAST)}, music correspondent",
        f"Support on the night came from {rng.choice(_BAND_ADJ)} {rng.choice(_BAND_NOUN)}, a four-piece from "
        f"{rng.choice(_CITIES)[0]} whose short, sharp set ended with a cover of {_song(rng, _title(rng))}. "
        f"Their singer thanked the crowd for arriving early and promised a record before the end of the year.",
        f"It has been a busy year for {lead[0].split()[-1]}. Since {_MONTHS[published.month - 1]}, "
        f"{lead[1]} has released two singles, {_song(rng, cast.songs[0])} and {_song(rng, cast.songs[-1])}, "
        f"played a run of shows in {rng.choice(_CITIES)[0]} and {rng.choice(_CITIES)[0]}, and written music for a "
        f"short film about a lighthouse keeper.",
        _quote_paragraph(rng, cast, cast.people[2], True, _QUOTES_ARTIST),
        f"Doors open at {rng.choice(('6pm', '6.30pm', '7pm', '7.30pm'))} and the show is expected to finish by "
        f"{rng.choice(('10.30pm', '11pm', '11.15pm'))}. The venue has asked fans to travel by public transport, "
        f"since parking nearby is limited and roadworks on the main approach are expected to last until the spring.",
    ]
    return rng.sample(pool, rng.randint(5, 9))


_KINDS = (_review, _festival, _tour, _awards, _interview)


def article(seed: int, index: int) -> dict[str, str]:
    """Article ``index`` of corpus ``seed``, as a JSONL record (id, url, title, published, text)."""
    rng = random.Random(f"kg-bench:{seed}:{index}")
    cast = _Cast.draw(rng)
    published = dt.date(2021, 1, 1) + dt.timedelta(days=rng.randrange(5 * 365))
    kind = rng.choice(_KINDS)
    title, paras = kind(rng, cast, published)
    paras += _extras(rng, cast, published)
    # Shuffle the middle a little so no two articles share a paragraph order.
    middle = paras[1:]
    for _ in range(rng.randint(0, 2)):
        i, j = rng.randrange(len(middle)), rng.randrange(len(middle))
        middle[i], middle[j] = middle[j], middle[i]
    paras = [paras[0], *middle]
    if rng.random() < 0.5:
        caption = rng.choice(_CAPTIONS).format(
            name=cast.lead[0], other=cast.people[1][0], venue=cast.venue, city=cast.city,
            day=rng.choice(_DAYS), event=cast.event, band=cast.band, year=published.year - 1,
        )
        paras.insert(rng.randint(0, 2), caption)
    body = [title, ""] + [_nbsp(rng, p) for p in paras]
    text = "\n\n".join([body[0], *body[2:]]) + "\n"
    slug = "-".join(title.lower().split()[:6]).strip(".,")
    return {
        "id": f"bench-{seed}-{index:07d}",
        "url": f"https://ledger.example.com/music/{published:%Y/%m/%d}/{slug}-{index}",
        "title": title,
        "published": published.isoformat(),
        "text": text,
    }


def articles(n: int, seed: int = 1) -> Iterator[dict[str, str]]:
    """The first ``n`` articles of corpus ``seed``."""
    for index in range(n):
        yield article(seed, index)


def write_jsonl(path: Path | str, n: int, seed: int = 1) -> Path:
    """Write ``n`` articles of corpus ``seed`` to ``path`` as JSONL and return the path."""
    target = Path(path)
    with target.open("w", encoding="utf-8") as out:
        for record in articles(n, seed):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return target


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=2000, help="number of articles (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default 1)")
    parser.add_argument("-o", "--output", default="-", help="JSONL file to write (default: stdout)")
    args = parser.parse_args(argv)
    if args.output == "-":
        for record in articles(args.n, args.seed):
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    else:
        write_jsonl(args.output, args.n, args.seed)


if __name__ == "__main__":
    main()
