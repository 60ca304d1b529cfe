"""Bytes to text: byte-order marks, UTF-8, and text in a legacy encoding, detected.

What every reader of :mod:`kg.io.readers` decodes with. UTF-8 is the rule; a text in
a Windows code page or Latin-1 is read in the encoding charset-normalizer detects,
with a warning naming it (logged on ``kg.io.encoding``), and only bytes that are no
text in any encoding, or UTF-8 gone wrong, are refused.
"""

from __future__ import annotations

import codecs
import logging
import re
import unicodedata

from kg.errors import InputError

__all__ = ["WIDE_BOMS", "decode", "newlines"]

_LOG = logging.getLogger(__name__)
#: Legacy encodings preferred, in order, among those charset-normalizer finds equally
#: plausible: news text that is not UTF-8 is nearly always in a Windows code page, and a
#: short Western text fits a dozen single-byte encodings without a single odd character.
_PREFERRED_LEGACY = ("cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp1257")
_WINDOWS_CODE_PAGE = re.compile(r"cp(125\d)")
#: A well-formed UTF-8 sequence of two to four bytes (lead byte, continuation bytes).
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
#: The byte-order marks of UTF-16 and UTF-32: a file that starts with one is no UTF-8 text.
WIDE_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
#: Byte-order marks, longest first so UTF-32 is not read as UTF-16.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode(data: bytes, source: str, *, legacy: bool = False) -> str:
    """Decode a source's bytes: BOM-marked UTF-8/16/32, else strict UTF-8.

    Line ends are normalised to ``\\n`` so that offsets are the same whichever
    system wrote the file.

    Args:
        data: The bytes.
        source: The source's name, for messages.
        legacy: Read bytes that are not UTF-8 in the legacy encoding they fit
            (:func:`_legacy_decode`), with a warning naming it, instead of refusing them.

    Raises:
        InputError: For binary data (NUL bytes), or bytes that are not UTF-8 (with
            ``legacy``: that fit no encoding).
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise InputError(f"{source}: not valid {encoding.upper()} ({exc.reason} at byte {exc.start})") from None
            return newlines(text)
    # NUL never occurs in UTF-8 text; it marks a binary file (or UTF-16 without a BOM).
    if b"\x00" in data:
        raise InputError(f"{source}: binary file (NUL bytes), not text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if not legacy or _broken_utf8(data, exc):
            raise InputError(
                f"{source}: not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
            ) from None
        text, encoding = _legacy_decode(data, source)
        _LOG.warning("%s: not UTF-8; read as %s (detected)", source, encoding)
    return newlines(text)


def _broken_utf8(data: bytes, error: UnicodeDecodeError) -> bool:
    """Whether bytes that are not UTF-8 are UTF-8 gone wrong rather than text in a legacy encoding.

    Read in a legacy encoding, UTF-8 with a flaw would go in as mojibake ("â€"). It is
    UTF-8 cut off inside a character (a lead byte and continuation bytes at the very
    end), or mostly well-formed UTF-8 sequences with a few stray bytes. A legacy text
    has its letters as lone high bytes, which seldom pair up as UTF-8 would.
    """
    if error.reason == "unexpected end of data" and len(data) - error.start >= 2:
        return True
    well_formed = sum(len(sequence) for sequence in _UTF8_SEQUENCE.findall(data))
    stray = sum(1 for byte in data if byte >= 0x80) - well_formed
    return well_formed > stray


def _legacy_decode(data: bytes, source: str) -> tuple[str, str]:
    """Text that is not UTF-8, decoded in the encoding it most plausibly is in: ``(text, encoding name)``.

    charset-normalizer finds the encodings whose decoding reads like text. Of those
    that read best (least "chaos"), the one wins whose non-ASCII characters are most
    often letters or punctuation (not symbols such as "\u00b3" or "\u2557"), then the
    earliest Windows code page of :data:`_PREFERRED_LEGACY`. On its own,
    charset-normalizer often names an exotic code page that decodes a short Latin-1
    text with one letter wrong, or a Mac code page for curly quotes; its language
    guess misleads on short texts too (Portuguese taken for Baltic). Where two
    code pages read equally well the earlier wins: a Turkish text in Windows-1254
    reads as Windows-1252, its ş, ğ and ı as þ, ð and ý.

    Raises:
        InputError: When the bytes are text in no encoding (binary data).
    """
    from charset_normalizer import from_bytes

    matches = list(from_bytes(data))
    if not matches:
        raise InputError(f"{source}: not text (not UTF-8, and no other character encoding fits its bytes)")
    least = min(match.chaos for match in matches)
    ranked = []
    for match in matches:
        if match.chaos > least:
            continue
        names = (match.encoding, *match.could_be_from_charset)
        rank, encoding = min(
            ((_PREFERRED_LEGACY.index(name), name) for name in names if name in _PREFERRED_LEGACY),
            default=(len(_PREFERRED_LEGACY), match.encoding),
        )
        text = str(match)
        key = (_prose_share(text), -rank)
        ranked.append((key, encoding, text))
    _, encoding, text = max(ranked, key=lambda item: item[0])
    windows = _WINDOWS_CODE_PAGE.fullmatch(encoding)
    return text, f"Windows-{windows.group(1)}" if windows else encoding


def _prose_share(text: str) -> float:
    """The share of a text's non-ASCII characters that are letters or punctuation: high in the right decoding."""
    wide = [ch for ch in text if ord(ch) > 0x7F]
    return sum(unicodedata.category(ch)[0] in "LP" for ch in wide) / len(wide) if wide else 1.0


def newlines(text: str) -> str:
    """Windows and old Mac line ends as ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")
