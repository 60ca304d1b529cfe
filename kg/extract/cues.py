"""Quote marks and speech cues: the word lists and scanners that quotes and coref share.

Quotation marks are found on the raw text, not on tokens, because the small English
model splits and attaches marks unreliably; every span found here is a character range
of the article, so it maps straight back to tokens with ``doc.char_span``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from spacy.tokens import Token

#: Lemmas (or lower-cased forms) of verbs that introduce reported or direct speech.
SAY_VERBS = frozenset(
    """
        say tell add write caption post tweet explain recall joke insist shout sing state claim note
        continue declare announce admit ask reply respond answer argue comment remark quip laugh
        gush share reveal confirm deny warn urge exclaim whisper mutter scream yell cry sob
        acknowledge concede emphasize emphasise stress suggest describe conclude muse reflect wonder
        predict promise vow boast complain lament protest observe tease rave pen blog message text
        chime read begin call tell testify plead counter retort sigh beam smile grin chuckle agree
        interrupt hint murmur snap demand inquire enquire persist repeat resume gasp stammer groan
        interject recount recite chant reiterate maintain assert allege contend clarify elaborate
        disclose divulge report captioned posted tweeted wrote said told added
        """.split()
)

#: Nouns that carry someone's words: "X's statement read", "a post from X said".
STATEMENT_NOUNS = frozenset(
    """
        statement post caption tweet letter message release note email text interview memo
        """.split()
)

#: People who speak for someone else: "a spokesperson for X said" is attributed to X.
PROXY_NOUNS = frozenset(["spokesperson", "spokesman", "spokeswoman", "representative", "rep", "publicist"])

#: Last words of sports clubs' names ("Riverside United"): a club, not a person.
TEAM_WORDS = frozenset({"United", "FC", "AFC", "CF", "Rovers", "Wanderers", "Athletic", "Albion", "Hotspur",
                        "Rangers", "Dynamo", "Orient", "Argyle", "Academicals"})

#: Last words that make a name an organisation's, whatever the model tags it ("Swiss National Bank").
ORG_WORDS = TEAM_WORDS | frozenset("""
    Bank Corporation Corp Inc Ltd LLC Company Co Airlines Airways Aircraft Motors Group Holdings Association
    Council Committee Ministry Department University College Institute Foundation Agency Commission Party
    Records Entertainment Media News Times Post Journal Magazine Network Studios Pictures Systems
    Technologies Labs Bureau Authority Police Army Navy Federation Union League Society Trust
    Weekly Daily Herald Tribune Gazette Telegraph Chronicle Mirror Observer Courier Inquirer Examiner Globe
    Sun Star Express Mail Standard Review Radio TV Television Philharmonic Orchestra Choir Chorus Ensemble
""".split())

#: Nouns that describe a person ("the folk singer", "the 37-year-old"), with gender when they carry one.
PERSON_NOUNS: dict[str, str | None] = {
    **dict.fromkeys(
        """
            singer songwriter singer-songwriter star superstar popstar icon artist musician rapper
            drummer guitarist bassist pianist vocalist producer director filmmaker writer author
            comedian host presenter model designer dancer performer entertainer winner nominee
            champion athlete player coach manager president minister senator governor mayor lawmaker
            politician candidate leader chief ceo founder spokesperson official secretary premier
            chancellor diplomat ambassador judge lawyer attorney prosecutor officer detective
            influencer activist youtuber creator legend hitmaker veteran actor star-turned-activist
            rocker crooner chanteuse frontperson songstress pope archbishop bishop general colonel
            captain sergeant lieutenant commissioner councillor councilor seed striker goalkeeper
            midfielder defender quarterback pitcher batsman bowler jockey boxer golfer cyclist
            sprinter swimmer skater teammate referee umpire chef economist analyst professor
            scientist researcher doctor surgeon nurse teacher principal student owner organiser
            organizer promoter curator critic guest headliner
            composer lyricist conductor choreographer playwright novelist poet photographer journalist
            reporter editor executive dj keyboardist saxophonist trumpeter violinist cellist percussionist
            soprano tenor baritone narrator screenwriter showrunner historian biographer
            """.split(),
        None,
    ),
    **dict.fromkeys(
        """
            actress spokeswoman chairwoman mother mom daughter wife woman queen frontwoman diva girl
            sister princess duchess countess grandmother businesswoman congresswoman
            """.split(),
        "f",
    ),
    **dict.fromkeys(
        """
            spokesman chairman father dad son husband man king frontman boy brother prince duke
            grandfather businessman congressman earl
            """.split(),
        "m",
    ),
}

#: Nouns that describe a group or organisation ("the band said").
GROUP_NOUNS = frozenset(
    """
    band group duo trio quartet quintet outfit ensemble company team label network studio firm
    """.split()
)

#: Group nouns that make an organisation a music group ("the band said").
MUSIC_GROUP_NOUNS = frozenset({"band", "duo", "trio", "quartet", "quintet", "group", "outfit", "ensemble", "orchestra",
                               "choir"})

#: Third-person pronouns that can be resolved, with their gender ("p": plural or group).
PRONOUNS: dict[str, str] = {
    **dict.fromkeys(["she", "her", "hers", "herself"], "f"),
    **dict.fromkeys(["he", "him", "his", "himself"], "m"),
    **dict.fromkeys(["they", "them", "their", "theirs", "themselves"], "p"),
}

#: Honorifics before a name, with the gender they imply.
HONORIFICS: dict[str, str | None] = {
    "mr": "m", "mr.": "m", "sir": "m", "lord": "m", "king": "m", "prince": "m",
    "mrs": "f", "mrs.": "f", "ms": "f", "ms.": "f", "miss": "f", "lady": "f", "dame": "f",
    "queen": "f", "princess": "f", "dr": None, "dr.": None,
}  # fmt: skip

#: Last words of venue names, with the kind of venue: "Orchid Live" tagged PERSON is a place.
VENUE_WORDS: dict[str, str] = {
    **dict.fromkeys("stadium field ballpark speedway velodrome racecourse".split(), "stadium"),
    **dict.fromkeys("theater theatre playhouse opera odeon cinema".split(), "theater"),
    **dict.fromkeys(
        """
            live arena hall bowl center centre garden gardens club ballroom amphitheater amphitheatre auditorium
            forum palladium pavilion coliseum colosseum dome lounge casino hotel resort studio studios church
            cathedral chapel academy roundhouse apollo fillmore ryman bar tavern cafe café room shed stage
            square plaza park fields grounds common showground showgrounds museum palace
            """.split(),
        "venue",
    ),
}

_DOUBLE_OPEN = "“„‟«"
_DOUBLE_CLOSE = "”»"
_STRAIGHT = '"'
_SINGLE_OPEN = "‘‹"
_SINGLE_CLOSE = "’›"
_APOSTROPHE = "'"
#: Characters after which a single mark may open a quotation.
_OPEN_BEFORE = ' \t\n([{—–-:;"“'
#: Characters after which a single mark may close a quotation.
_CLOSE_AFTER = ' \t\n)]}.,;:!?—–-"”'
_ALL_MARKS = _DOUBLE_OPEN + _DOUBLE_CLOSE + _STRAIGHT + _SINGLE_OPEN + _SINGLE_CLOSE + _APOSTROPHE


@dataclass(frozen=True)
class MarkedSpan:
    """Text between a pair of quotation marks.

    ``start:end`` is the inside of the marks; ``open_at``/``close_at`` are the marks' own
    offsets (``close_at`` is None when a paragraph of a multi-paragraph quotation ends
    unclosed); ``group`` is shared by the paragraphs of one multi-paragraph quotation.
    """

    start: int
    end: int
    open_at: int
    close_at: int | None
    single: bool
    group: int


def is_say_verb(token: Token) -> bool:
    """Whether ``token`` is a verb of saying (by lemma or form, so tagger slips still count)."""
    if token.pos_ == "PROPN" and not token.is_lower:
        # "The Huffington Post", "Said Ali": a name, not a tagger slip
        return False
    return token.pos_ in ("VERB", "AUX", "NOUN", "PROPN") and (
        token.lemma_.lower() in SAY_VERBS or token.lower_ in SAY_VERBS
    )


def find_marked_spans(text: str) -> list[MarkedSpan]:
    """All quotation-mark pairs in ``text``, outer marks only.

    Double marks (straight or curly) win; single marks count as outer marks only outside
    double ones (headlines, British style), so single marks nested inside a double-quoted
    quotation stay part of it. A paragraph that ends inside a quotation continues it only
    when the next paragraph re-opens the mark; otherwise the unclosed mark is dropped.

    >>> text = 'He said "hi" and \\u2018bye\\u2019.'
    >>> [text[s.start : s.end] for s in find_marked_spans(text)]
    ['hi', 'bye']
    """
    return list(_marked_spans(text))


@lru_cache(maxsize=4)
def _marked_spans(text: str) -> tuple[MarkedSpan, ...]:
    """:func:`find_marked_spans`, kept for the last few texts: coref and quotes both ask."""
    spans: list[MarkedSpan] = []
    lines = _lines(text)
    carry_group: int | None = None
    for n, (lo, hi) in enumerate(lines):
        doubles, pending = _scan_doubles(text, lo, hi)
        group_of_first = carry_group
        carry_group = None
        for i, (s, e, o, c) in enumerate(doubles):
            group = (
                group_of_first
                if (i == 0 and group_of_first is not None and o == _first_mark(text, lo, hi))
                else len(spans)
            )
            spans.append(MarkedSpan(s, e, o, c, False, group))
        if pending is not None and _next_opens(text, lines, n):
            # an unclosed paragraph re-opened by the next: one quotation over several paragraphs
            group = group_of_first if (not doubles and group_of_first is not None) else len(spans)
            spans.append(MarkedSpan(pending + 1, _rstrip(text, pending + 1, hi), pending, None, False, group))
            carry_group = group
        outside = _outside(lo, hi, doubles, pending)
        for s, e, o, c in _scan_singles(text, outside):
            spans.append(MarkedSpan(s, e, o, c, True, len(spans)))
    spans.sort(key=lambda m: m.start)
    return tuple(m for m in spans if m.end > m.start)


def _lines(text: str) -> list[tuple[int, int]]:
    out, lo = [], 0
    for i, ch in enumerate(text):
        if ch == "\n":
            if i > lo:
                out.append((lo, i))
            lo = i + 1
    if lo < len(text):
        out.append((lo, len(text)))
    return out


def _first_mark(text: str, lo: int, hi: int) -> int:
    i = lo
    while i < hi and text[i].isspace():
        i += 1
    return i


def _next_opens(text: str, lines: list[tuple[int, int]], n: int) -> bool:
    if n + 1 >= len(lines):
        return False
    lo, hi = lines[n + 1]
    i = _first_mark(text, lo, hi)
    return i < hi and text[i] in _DOUBLE_OPEN + _STRAIGHT


def _rstrip(text: str, lo: int, hi: int) -> int:
    while hi > lo and text[hi - 1].isspace():
        hi -= 1
    return hi


def _scan_doubles(text: str, lo: int, hi: int) -> tuple[list[tuple[int, int, int, int]], int | None]:
    found: list[tuple[int, int, int, int]] = []
    open_at: int | None = None
    for i in range(lo, hi):
        ch = text[i]
        if ch in _DOUBLE_OPEN and open_at is None:
            # an opening curly mark starts a quotation
            open_at = i
        elif ch in _DOUBLE_CLOSE and open_at is not None:
            # a closing curly mark ends the open one
            found.append((open_at + 1, i, open_at, i))
            open_at = None
        elif ch == _STRAIGHT:
            # a straight mark toggles
            if open_at is None:
                open_at = i
            else:
                found.append((open_at + 1, i, open_at, i))
                open_at = None
    return found, open_at


def _outside(
    lo: int, hi: int, doubles: list[tuple[int, int, int, int]], pending: int | None
) -> list[tuple[int, int]]:
    out, cur = [], lo
    for _, _, o, c in doubles:
        out.append((cur, o))
        cur = c + 1
    out.append((cur, pending if pending is not None else hi))
    return [(a, b) for a, b in out if b > a]


def _scan_singles(text: str, stretches: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Pairs of single marks in each stretch, telling quotation marks from apostrophes.

    Apostrophes look like single marks: "don't" and "it's" sit between letters and are
    never marks; "rock 'n' roll", "'em" and "the '90s" are elisions; "the fans' cheers"
    ends a word. A mark that closes only weakly (a letter before it, a space after it)
    is passed over when a strong close (after punctuation, or at the end) follows before
    any other quotation could open.
    """
    found: list[tuple[int, int, int, int]] = []
    for lo, hi in stretches:
        open_at: int | None = None
        for i in _single_marks(text, lo, hi):
            if _elision(text, i):
                # "'n'", "'em", "'90s": part of a word, not a mark
                continue
            if open_at is None and _opens(text, i):
                # a mark after a space opens
                open_at = i
            elif open_at is not None and _closes(text, i):
                if _strong_close(text, i, hi) or not _stronger_close_ahead(text, i + 1, hi):
                    # a mark before a space or punctuation closes, unless a word's apostrophe
                    # ("fans' cheers") is followed by the real closing mark
                    found.append((open_at + 1, i, open_at, i))
                    open_at = None
    return found


_SINGLE_MARK = re.compile("[" + re.escape(_SINGLE_OPEN + _SINGLE_CLOSE + _APOSTROPHE) + "]")


def _single_marks(text: str, lo: int, hi: int) -> list[int]:
    """Offsets of single marks and apostrophes in ``text[lo:hi]``."""
    return [m.start() for m in _SINGLE_MARK.finditer(text, lo, hi)]


def _opens(text: str, i: int) -> bool:
    before = text[i - 1] if i > 0 else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    return text[i] in _SINGLE_OPEN + _APOSTROPHE and before in _OPEN_BEFORE and not after.isspace()


def _closes(text: str, i: int) -> bool:
    before = text[i - 1] if i > 0 else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    return text[i] in _SINGLE_CLOSE + _APOSTROPHE and after in _CLOSE_AFTER and not before.isspace()


def _strong_close(text: str, i: int, hi: int) -> bool:
    """A closing mark after punctuation ("fine,'"), or before punctuation or the end of the line."""
    after = text[i + 1] if i + 1 < hi else "\n"
    return text[i - 1] in ".,!?;:—–-" or after not in " \t"


def _stronger_close_ahead(text: str, lo: int, hi: int) -> bool:
    """Whether a strong closing mark comes in ``lo:hi`` before any mark that could open."""
    for j in _single_marks(text, lo, hi):
        if _elision(text, j):
            continue
        if _closes(text, j) and _strong_close(text, j, hi):
            return True
        if _opens(text, j):
            return False
    return False


#: Words spelled with a leading apostrophe ("give 'em", "'til dawn", "rock 'n' roll").
_ELIDED = frozenset({"em", "til", "cause", "cos", "bout", "round", "tis", "twas", "n"})


def _elision(text: str, i: int) -> bool:
    """An apostrophe that stands for missing letters: "'90s", "'em", both marks of "'n'"."""
    if text[i] not in _SINGLE_CLOSE + _SINGLE_OPEN + _APOSTROPHE:
        return False
    if text[i + 1 : i + 2].isdigit() and text[i + 3 : i + 4] in ("s", "", " ", ",", ".", "’", "'"):
        # the '90s, class of '09
        return True
    j = i + 1
    while j < len(text) and text[j].isalpha():
        j += 1
    word = text[i + 1 : j].lower()
    whole = (j >= len(text) or not text[j].isalpha()) and (i == 0 or not text[i - 1].isalpha())
    if word in _ELIDED and whole:
        # a whole elided word after a space: 'em, 'til; "'n'" also ends in a mark
        return word != "n" or text[j : j + 1] in ("'", "’")
    # the closing mark of "'n'"
    return i >= 2 and text[i - 1] in "nN" and text[i - 2] in "'’" and (i < 3 or not text[i - 3].isalpha())


def strip_marks(text: str) -> str:
    """``text`` lower-cased with quotation marks, punctuation and spacing dropped, for comparison.

    >>> strip_marks("It\\u2019s  ‘fine,’")
    'itsfine'
    """
    return "".join(ch for ch in text.lower() if ch.isalnum())


#: Common given names and the gender they usually carry, so "he" does not go to "Mary Jones".
FIRST_NAME_GENDER: dict[str, str] = {
    **dict.fromkeys(
        """
            mary patricia jennifer linda elizabeth barbara susan jessica sarah karen nancy lisa
            betty margaret sandra ashley kimberly emily donna michelle dorothy carol amanda melissa
            deborah stephanie rebecca sharon laura cynthia kathleen amy angela shirley anna brenda
            pamela emma nicole helen samantha katherine christine debra rachel carolyn janet
            catherine maria heather diane ruth julie olivia joyce virginia victoria kelly lauren
            christina joan evelyn judith megan andrea cheryl hannah jacqueline martha gloria teresa
            ann sara madison frances kathryn janice jean abigail alice judy sophia grace denise
            amber doris marilyn danielle beverly isabella theresa diana natalie brittany charlotte
            marie kayla alexis lori selena ariana miley katy billie dua demi hillary kamala nancy
            angela theresa jacinda meryl julia jennifer scarlett margot zendaya rihanna adele
            shakira whitney aretha dolly cher britney christina lana olivia sabrina doja cardi nicki
            lizzo halsey camila nina lena greta ines rosa priya fiona helen maya grace ella mia zoe
            chloe lucy ava sophie isabel elena sofia lucia carmen ana paula marta eva alma irina
            olga natasha yuki mei aisha fatima leila amina nadia hanna ingrid astrid freya
            ellen eleanor ellie emily harriet jane janet joanna josephine kate katie kathy
            laura leah lily lindsay lydia mabel madeline margo maggie marian molly nora penelope
            phoebe rose rosie sally sienna stella susie tessa tina valerie vanessa vera violet
            wendy willow yvonne zara beth carla clara daisy delia edith elsie esther gemma
            georgia gillian gwen hazel holly iris ivy jade jasmine joy june kara keira lara lisa
            lorna lottie louise lucia mara marcia marina maxine miriam naomi nicola paige petra
            poppy rachael rebekah rita robyn sadie selma serena shannon simone sonia tara
            tess thea vivian yasmin
            """.split(),
        "f",
    ),
    **dict.fromkeys(
        """
            james robert john michael david william richard joseph thomas charles christopher daniel
            matthew anthony mark donald steven paul andrew joshua kenneth kevin brian george timothy
            ronald edward jason jeffrey ryan jacob gary nicholas eric jonathan stephen larry justin
            scott brandon benjamin samuel gregory alexander frank patrick raymond jack dennis jerry
            tyler aaron jose adam nathan henry douglas zachary peter kyle ethan walter noah jeremy
            christian keith roger terry gerald harold sean austin carl arthur lawrence jesse bryan
            billy joe bruce gabriel logan albert willie alan juan wayne elijah randy roy vincent
            ralph eugene russell bobby mason philip louis harry ed bruno elton mick bob barack joe
            boris emmanuel vladimir xi narendra keir rishi olaf tom brad leonardo denzel kanye jay
            drake shawn justin travis kendrick snoop eminem usher elvis freddie leo omar victor
            marcus carlos daniel tomas jonas karl hans pedro luis miguel diego pablo marco luca
            giovanni pierre jean-luc francois ahmed mohammed ali hassan raj arjun rahul hiroshi
            kenji ivan sergei dmitri lars sven erik oscar felix hugo max theo liam owen connor
            sam ben tim tom nick nate jake luke matt mike chris dan dave steve rob will
            adrian alfie angus archie barry bernard callum cameron colin craig damian declan
            dean derek dominic duncan edgar elliot ethan evan finn fraser gavin glen
            graham grant hamish harvey ian jared jasper joel josh kieran lewis
            lucas malcolm marvin mathew miles mitchell neil nigel oliver ollie patrick
            quentin reid rhys rory ross rupert seth shane simon spencer stuart toby trevor
            troy wes xavier zach rafael rafa ruben sergio mateo andres javier
            """.split(),
        "m",
    ),
}
