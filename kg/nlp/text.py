"""Text clean-up before parsing that never moves a character.

News text carries non-breaking and other odd spaces and control characters that
spoil spaCy's sentence splits. Each is replaced by one plain character, so every
offset into the cleaned text is also an offset into the original.
"""

from __future__ import annotations

_SPACES = "\u00a0\u2007\u202f\u2009\u200a\u2002\u2003\u2004\u2005\u2006\u2008\u205f\u3000\t\r\f\v\u200b\ufeff"
_TABLE: dict[int, str] = {ord(c): " " for c in _SPACES}
_TABLE.update({ord(c): "\n" for c in "\u2028\u2029\x85"})
_TABLE.update({c: " " for c in range(0x20) if chr(c) not in "\n"})
_TABLE[0x7F] = " "


def normalize_text(text: str) -> str:
    """Replace odd spaces and control characters one for one.

    >>> normalize_text("a\\u00a0b\\r\\nc")
    'a b \\nc'
    >>> len(normalize_text("x\\u202fy")) == len("x\\u202fy")
    True
    """
    return text.translate(_TABLE)
