"""Decoding: UTF-8 and byte-order marks, legacy encodings detected, UTF-8 gone wrong and noise refused."""

from __future__ import annotations

import logging
import random

import pytest

from kg.errors import InputError
from kg.io.encoding import decode


@pytest.mark.parametrize(
    ("text", "encoding", "named"),
    [
        ("Le caf\u00e9 a rouvert. Jos\u00e9 M\u00fcller a jou\u00e9 \u00ab La Mer \u00bb \u00e0 Z\u00fcrich.\n",
         "latin-1", "Windows-1252"),
        ("A cantora Jo\u00e3o e Concei\u00e7\u00e3o atuaram em Lisboa \u00e0 noite.\n", "latin-1", "Windows-1252"),
        ("La cantante Bego\u00f1a N\u00fa\u00f1ez actu\u00f3 en C\u00e1diz: \u00ab\u00a1qu\u00e9 noche!\u00bb\n",
         "cp1252", "Windows-1252"),
        ("Gr\u00fc\u00dfe aus M\u00fcnchen, sagte die S\u00e4ngerin: \u201eGru\u00df\u201c.\n", "cp1252",
         "Windows-1252"),
        ("The band\u2019s \u201cfarewell\u201d show sold out \u2014 fans queued for hours.\n", "cp1252",
         "Windows-1252"),
        ("S\u00f6ngkonan \u00de\u00f3rd\u00eds kom fram \u00ed Reykjav\u00edk. \u201e\u00deetta var fr\u00e1b\u00e6rt.\u201c\n",
         "cp1252", "Windows-1252"),
        ("\u0141\u00f3d\u017a: \u015bpiewaczka zagra\u0142a w \u017bywcu.\n", "cp1250", "Windows-1250"),
        ("Zp\u011bva\u010dka Ji\u0159ina \u0160\u0165astn\u00e1 vystoupila v Brn\u011b.\n", "cp1250",
         "Windows-1250"),
        ("\u041f\u0435\u0432\u0438\u0446\u0430 \u0432\u044b\u0441\u0442\u0443\u043f\u0438\u043b\u0430 "
         "\u0432 \u041c\u043e\u0441\u043a\u0432\u0435.\n", "cp1251", "Windows-1251"),
        ("\u0397 \u03c4\u03c1\u03b1\u03b3\u03bf\u03c5\u03b4\u03af\u03c3\u03c4\u03c1\u03b9\u03b1 "
         "\u03b5\u03bc\u03c6\u03b1\u03bd\u03af\u03c3\u03c4\u03b7\u03ba\u03b5 \u03c3\u03c4\u03b7\u03bd "
         "\u0391\u03b8\u03ae\u03bd\u03b1.\n", "cp1253", "Windows-1253"),
    ],
    ids=["french-latin-1", "portuguese-latin-1", "spanish", "german", "english-quotes", "icelandic", "polish",
         "czech", "russian", "greek"],
)
def test_legacy_text_is_decoded_and_the_encoding_named(caplog, text, encoding, named):
    with caplog.at_level(logging.WARNING, logger="kg.io.encoding"):
        assert decode(text.encode(encoding), "in.txt", legacy=True) == text
    assert caplog.messages == [f"in.txt: not UTF-8; read as {named} (detected)"]


def test_without_legacy_only_utf8_is_read():
    with pytest.raises(InputError, match=r"in\.txt: not valid UTF-8 \(byte 0xe9 at offset 3\)"):
        decode("Caf\u00e9.".encode("latin-1"), "in.txt")


@pytest.mark.parametrize(
    "data",
    [
        "Maria said \u201c".encode("utf-8")[:-1],  # cut off inside a character
        "Caf\u00e9 \u00d8resund: \u201cSn\u00f8\u201d and \u00e6bler. ".encode("utf-8") + b"\xff",  # one stray byte
    ],
    ids=["cut-off", "stray-byte"],
)
def test_utf8_gone_wrong_is_refused_not_read_as_mojibake(data):
    with pytest.raises(InputError, match=r"in\.txt: not valid UTF-8 \(byte 0x"):
        decode(data, "in.txt", legacy=True)


def test_bytes_that_are_text_in_no_encoding_are_refused():
    noise = random.Random(7).randbytes(1000).replace(b"\x00", b"\x01")
    with pytest.raises(InputError, match=r"in\.bin: not text \(not UTF-8, and no other character encoding fits"):
        decode(noise, "in.bin", legacy=True)


def test_line_ends_are_newlines_whatever_the_encoding():
    assert decode("Caf\u00e9\r\nBar\rBaz".encode("cp1252"), "in.txt", legacy=True) == "Caf\u00e9\nBar\nBaz"
