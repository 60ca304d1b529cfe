"""Bad input through a real ``python -m kg build``: one line a problem, honest exit status, no half files.

Every case pairs the bad input with one good article, so each test shows both
halves of the promise: the bad source is named in one line and skipped (or, for
a mistake in the command, refused before any work), and the good one still goes in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rdflib import Dataset, Literal

GOOD = "Anna Berglund spoke to reporters in Oslo on Monday.\n"
GOOD_NAME = "Anna Berglund"


def kg(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "kg", *args], input=stdin, capture_output=True, timeout=300)
    return subprocess.CompletedProcess(result.args, result.returncode, result.stdout.decode("utf-8", "replace"),
                                       result.stderr.decode("utf-8", "replace"))


def problem_lines(stderr: str) -> list[str]:
    """The Warning/Error lines of a run, after checking that nothing else (a traceback) is there."""
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    for line in lines:
        assert line.startswith(("Warning: ", "Error: ")) or "input problem(s)" in line, stderr
    return [line for line in lines if line.startswith(("Warning: ", "Error: "))]


def leftovers(folder: Path) -> list[str]:
    """Temporary files a writer left behind (kg writes ``.NAME.*.tmp`` and renames it)."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or p.name.startswith("."))


def names_in(path: Path) -> set[str]:
    """schema:name values in a written graph: the file is whole if rdflib reads it."""
    dataset = Dataset(default_union=True)
    dataset.parse(path, format="trig" if path.suffix == ".trig" else None)
    return {str(o) for o in dataset.objects(None, None) if isinstance(o, Literal)}


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    (tmp_path / "good.txt").write_text(GOOD, encoding="utf-8")
    return tmp_path


# A bad source among good ones: reported as "Warning: SOURCE: problem", skipped, exit 1.
SKIPPED = [
    ("empty.txt", b"", "empty file"),
    ("blank.txt", b"  \n\t\r\n   \n", "empty file"),
    ("blank.jsonl", b"\n\n   \n", "empty file"),
    ("binary.txt", bytes(range(256)) * 8, "binary file"),
    ("nul.txt", b"Maria Lind sang.\x00\x00 She left.", "binary file"),
    ("nul.html", b"<html><body><p>Maria Lind\x00 sang.</p></body></html>", "binary file"),
    ("nul.jsonl", b'{"text": "Maria Lind sang."}\x00\n', "binary file"),
    ("noise.txt", bytes(range(1, 256)) * 8, "not text"),
    ("flawed-utf8.txt", "Caf\u00e9 Oslo: Maria Lind sang \u201cSn\u00f8\u201d. ".encode("utf-8") + b"\xff", "not valid UTF-8"),
    # a JSONL file is read line by line: the line is named
    ("latin1.jsonl", '{"text": "Caf\u00e9 Oslo"}'.encode("latin-1"), "not valid UTF-8", ":1"),
    ("truncated.txt", "Maria Lind said \u201c".encode("utf-8")[:-1], "not valid UTF-8"),
    ("utf16-bad.txt", b"\xff\xfeM\x00\x00\xd8", "not valid UTF-16"),
]


def test_each_bad_source_is_one_line_and_the_rest_goes_in(folder):
    # One build over all of them (a process each would spend a minute loading spaCy).
    for name, raw, *_ in SKIPPED:
        (folder / name).write_bytes(raw)
    out = folder / "graph.ttl"
    result = kg("build", str(folder), "-o", str(out))
    assert result.returncode == 1, result.stderr
    lines = problem_lines(result.stderr)
    expected = sorted(f"Warning: {folder / name}{''.join(line)}: {problem}" for name, _, problem, *line in SKIPPED)
    assert len(lines) == len(expected), result.stderr
    for line, start in zip(sorted(lines), expected):
        assert line.startswith(start), (line, start)
    assert f"{len(SKIPPED)} input problem(s): not everything went in." in result.stderr
    assert GOOD_NAME in names_in(out)
    assert leftovers(folder) == []


def test_a_legacy_encoding_goes_in_with_a_warning_naming_it(folder):
    (folder / "latin1.txt").write_bytes("Caf\u00e9 Oslo hosted Maria Lind.\n".encode("latin-1"))
    out = folder / "graph.ttl"
    result = kg("build", str(folder), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert problem_lines(result.stderr) == [f"Warning: {folder / 'latin1.txt'}: not UTF-8; read as Windows-1252 (detected)"]
    assert "Caf\u00e9 Oslo" in out.read_text(encoding="utf-8")


def test_utf16_with_bom_goes_in_whole(folder):
    text = "Maria Lindqvist said she was happy in Bergen.\n"
    (folder / "utf16.txt").write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
    (folder / "utf16be.jsonl").write_bytes(
        b"\xfe\xff" + json.dumps({"id": "be", "text": "Karl Osterberg sang in Malmo."}).encode("utf-16-be")
    )
    out = folder / "graph.ttl"
    result = kg("build", str(folder), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert problem_lines(result.stderr) == []
    names = names_in(out)
    assert {"Maria Lindqvist", "Karl Osterberg", GOOD_NAME} <= names
    # The BOM is not part of the text: no name or title starts with U+FEFF.
    assert not any(n.startswith("\ufeff") for n in names)


def test_twenty_megabyte_article_is_refused_plainly(folder):
    # Over spaCy's max_length (1,000,000 chars): refused with its size, not cut, not a traceback.
    sentence = "Greta Holm opened the new library in Tromso on a cold Monday morning. "
    big = sentence * (20_000_000 // len(sentence))
    (folder / "big.txt").write_text(big, encoding="utf-8")
    (folder / "big.jsonl").write_text(json.dumps({"id": "big", "text": big[:1_500_000]}) + "\n", encoding="utf-8")
    out = folder / "graph.ttl"
    result = kg("build", str(folder), "-o", str(out))
    assert result.returncode == 1
    lines = problem_lines(result.stderr)
    assert len(lines) == 2, result.stderr
    assert lines[0].startswith(f"Warning: {folder / 'big.jsonl'}:1: text too long (1,500,000 characters")
    assert lines[1].startswith(f"Warning: {folder / 'big.txt'}: text too long ({len(big):,} characters")
    assert "1,000,000" in lines[1]
    names = names_in(out)
    assert GOOD_NAME in names and "Greta Holm" not in names


@pytest.mark.slow
def test_long_article_under_the_limit_goes_in(folder):
    sentence = "Greta Holm opened the new library in Tromso on Monday. "
    text = sentence * 1000  # 55,000 characters: long for news, well under the limit
    (folder / "long.txt").write_text(text, encoding="utf-8")
    result = kg("build", str(folder / "long.txt"), "-o", str(folder / "g.nt"))
    assert result.returncode == 0, result.stderr
    assert "Greta Holm" in names_in(folder / "g.nt")


JSONL = (
    '{"id": "a", "text": "Tom Reedman sang in Paris."}\n'
    "{not json\n"
    "[1, 2]\n"
    '{"id": "b"}\n'
    '{"id": "c", "text": "Lena Hartvig danced in Lyon.", "published": "last week"}\n'
    '{"id": "d", "text": "Ola Brekke spoke in Bergen.", "title": 7}\n'
    '{"id": "e", "text": "Ann Leeward painted in Rome."}\n'
)


def test_malformed_jsonl_lines_are_named_by_file_and_line(folder):
    corpus = folder / "corpus.jsonl"
    corpus.write_text(JSONL, encoding="utf-8")
    out = folder / "graph.ttl"
    result = kg("build", str(corpus), "-o", str(out))
    assert result.returncode == 1
    lines = problem_lines(result.stderr)
    assert [line.split(": ", 2)[1] for line in lines] == [f"{corpus}:{n}" for n in (2, 3, 4, 5, 6)]
    assert "invalid JSON" in lines[0] and "expected a JSON object" in lines[1]
    assert '"text"' in lines[2] and '"published"' in lines[3] and '"title"' in lines[4]
    assert "5 input problem(s)" in result.stderr
    names = names_in(out)
    assert {"Tom Reedman", "Ann Leeward"} <= names and "Lena Hartvig" not in names


def test_strict_makes_any_problem_fatal_and_writes_nothing(folder):
    corpus = folder / "corpus.jsonl"
    corpus.write_text(JSONL, encoding="utf-8")
    out = folder / "graph.ttl"
    result = kg("build", str(corpus), "-o", str(out), "--strict")
    assert result.returncode == 1
    assert problem_lines(result.stderr) == [
        f"Error: {corpus}:2: invalid JSON (Expecting property name enclosed in double quotes at column 2)"
    ]
    assert not out.exists()
    assert leftovers(folder) == []


def test_strict_on_an_empty_file_writes_nothing(folder):
    (folder / "empty.txt").write_bytes(b"")
    out = folder / "graph.nq"
    result = kg("build", str(folder), "-o", str(out), "--strict")
    assert result.returncode == 1
    assert problem_lines(result.stderr) == [f"Error: {folder / 'empty.txt'}: empty file"]
    assert not out.exists() and leftovers(folder) == []


@pytest.mark.parametrize("name", ["notes.pdf", "README", "page.docx"])
def test_unknown_extension_is_refused_before_any_work(folder, name):
    (folder / name).write_text(GOOD, encoding="utf-8")
    out = folder / "graph.ttl"
    result = kg("build", str(folder / "good.txt"), str(folder / name), "-o", str(out))
    assert result.returncode == 1
    lines = problem_lines(result.stderr)
    assert len(lines) == 1 and lines[0].startswith(f"Error: {folder / name}: unsupported extension")
    assert ".txt, .html, .htm, .jsonl" in lines[0]
    assert not out.exists()


def test_unknown_extensions_in_a_folder_are_ignored(folder):
    (folder / "notes.pdf").write_bytes(b"%PDF-1.4 \x00\x01")
    result = kg("build", str(folder), "-o", str(folder / "graph.ttl"))
    assert result.returncode == 0, result.stderr
    assert problem_lines(result.stderr) == []


def test_unreadable_file_is_named_and_skipped(folder):
    """A link whose article is gone cannot be read by anyone, root (as CI runs) included."""
    locked = folder / "locked.txt"
    locked.symlink_to(folder / "moved-away.txt")
    out = folder / "graph.ttl"
    result = kg("build", str(folder), "-o", str(out))
    assert result.returncode == 1
    lines = problem_lines(result.stderr)
    assert lines == [f"Warning: {locked}: cannot read (No such file or directory)"]
    assert GOOD_NAME in names_in(out)


def test_missing_input_is_refused(folder):
    result = kg("build", str(folder / "good.txt"), str(folder / "gone.txt"), "-o", str(folder / "g.ttl"))
    assert result.returncode == 1
    assert problem_lines(result.stderr) == [f"Error: {folder / 'gone.txt'}: no such file or folder"]
    assert not (folder / "g.ttl").exists()


@pytest.mark.parametrize("target", ["outdir", "outdir.ttl"])
def test_directory_as_output_is_refused_and_left_alone(folder, target):
    out = folder / target
    out.mkdir()
    (out / "keep.txt").write_text("mine", encoding="utf-8")
    result = kg("build", str(folder / "good.txt"), "-o", str(out))
    assert result.returncode == 1
    lines = problem_lines(result.stderr)
    assert len(lines) == 1 and lines[0].startswith(f"Error: {out}: is a folder"), result.stderr
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert leftovers(folder) == []


def test_output_in_a_missing_folder_makes_the_folder(folder):
    out = folder / "no" / "such" / "graph.ttl"
    result = kg("build", str(folder / "good.txt"), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert GOOD_NAME in names_in(out)


def test_output_under_a_file_is_one_line(folder):
    out = folder / "good.txt" / "graph.ttl"
    result = kg("build", str(folder / "good.txt"), "-o", str(out))
    assert result.returncode == 1
    assert problem_lines(result.stderr) == [f"Error: {out}: cannot make its folder: {folder / 'good.txt'} is a file, not a folder"]


def test_existing_output_survives_a_failed_build(folder):
    out = folder / "graph.ttl"
    out.write_text("# the previous graph\n", encoding="utf-8")
    (folder / "empty.txt").write_bytes(b"")
    result = kg("build", str(folder / "empty.txt"), "-o", str(out))
    assert result.returncode == 1
    assert problem_lines(result.stderr)[-1] == f"Error: no article found in {folder / 'empty.txt'}"
    assert out.read_text(encoding="utf-8") == "# the previous graph\n"


@pytest.mark.parametrize(
    ("raw", "problem"),
    [(b"", "empty input"), (b"\x00\x01\x02", "binary file"), (b"Maria said \xe2\x80", "not valid UTF-8")],
)
def test_bad_stdin_is_one_line(tmp_path, raw, problem):
    result = kg("build", "-", "-o", str(tmp_path / "g.ttl"), stdin=raw)
    assert result.returncode == 1
    lines = problem_lines(result.stderr)
    assert len(lines) == 2 and lines[0].startswith(f"Warning: <stdin>: {problem}"), result.stderr
    assert lines[1] == "Error: no article found in -"
    assert list(tmp_path.iterdir()) == []


def test_an_unexpected_failure_is_one_line_not_a_traceback(tmp_path):
    # A bug anywhere below the CLI still reaches the user as one line (KG_DEBUG=1 shows the traceback).
    code = (
        "import sys, kg.cli, kg.graph\n"
        "def boom(*a, **k): raise RuntimeError('disk on fire\\nsecond line')\n"
        "kg.graph.KnowledgeGraph.stats = boom\n"
        "sys.argv = ['kg', 'stats', sys.argv[1]]\n"
        "kg.cli.main()\n"
    )
    graph = tmp_path / "g.nt"
    graph.write_text("<https://e.org/a> <https://e.org/b> <https://e.org/c> .\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", code, str(graph)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "Error: internal error (RuntimeError: disk on fire second line); rerun with KG_DEBUG=1 "
        "for a traceback and report it."
    ]
    debug = subprocess.run([sys.executable, "-c", code, str(graph)], capture_output=True, text=True, timeout=60,
                           env={**os.environ, "KG_DEBUG": "1"})
    assert "Traceback" in debug.stderr and "disk on fire" in debug.stderr


def test_closed_pipe_is_not_a_traceback(tmp_path):
    lines = "".join(f"<https://e.org/s{i}> <https://schema.org/name> \"n{i}\" .\n" for i in range(20000))
    graph = tmp_path / "g.nt"
    graph.write_text(lines, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg", "query", str(graph), "SELECT ?s ?n WHERE { ?s ?p ?n }", "--format", "csv"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(100)
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in stderr
