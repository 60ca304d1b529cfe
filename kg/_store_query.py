"""The child a timed query on a store runs in (see :mod:`kg.deadline`): pyoxigraph only, so it starts in 0.1 s.

Reads the query on stdin, opens the store named by its one argument read-only, and
writes the kind of result on the first line of stdout, then the result: ``true`` or
``false`` for ASK, SPARQL JSON results for SELECT, N-Triples for CONSTRUCT and DESCRIBE.
The result is made whole before a byte of it is written: a runaway query killed at its
limit then leaves nothing in the parent, which would otherwise have read (and held on
to) tens of MB of rows streamed in the meantime. A failure is one line on stderr and
exit status 1. Run as a script (``python -I``), not imported: importing kg would cost
the time this file saves.
"""

import sys

import pyoxigraph as ox


def main() -> int:
    text = sys.stdin.buffer.read().decode("utf-8")
    out = sys.stdout.buffer
    try:
        result = ox.Store.read_only(sys.argv[1]).query(text)
        if isinstance(result, ox.QueryBoolean):
            out.write(b"ASK\n" + (b"true" if result else b"false"))
        elif isinstance(result, ox.QuerySolutions):
            out.write(b"SELECT\n" + result.serialize(format=ox.QueryResultsFormat.JSON))
        else:
            out.write(b"CONSTRUCT\n" + result.serialize(format=ox.RdfFormat.N_TRIPLES))
    except (SyntaxError, ValueError, OSError) as err:
        sys.stderr.write(" ".join(str(err).split()) or type(err).__name__)
        return 1
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
