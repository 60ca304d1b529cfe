"""The child a timed query on a store runs in (see :mod:`kg.deadline`): pyoxigraph only, so it starts in 0.1 s.

Reads the query on stdin, opens the store named by its first argument read-only (the
second, if any, is the JSON table of prefixes a query may use undeclared), and
writes the kind of result on the first line of stdout, then the result: ``true`` or
``false`` for ASK, SPARQL JSON results for SELECT, N-Triples for CONSTRUCT and DESCRIBE.
The result is made whole before a byte of it is written: a runaway query killed at its
limit then leaves nothing in the parent, which would otherwise have read (and held on
to) tens of MB of rows streamed in the meantime. A failure is one line on stderr and
exit status 1. Run as a script (``python -I``), not imported: importing kg would cost
the time this file saves.

The child ends itself when its parent is gone: a parent stopped by SIGTERM or SIGKILL
cannot kill it, and a runaway query would otherwise use a core for hours.
"""

import json
import os
import sys
import threading
import time

import pyoxigraph as ox

#: Seconds between looks at whether the parent is still there.
_PARENT_CHECK = 0.5


def _end_with_parent() -> None:
    """Exit when the parent process goes (Oxigraph releases the GIL while it runs a query, so this thread runs)."""
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(_PARENT_CHECK)
    os._exit(1)


def main() -> int:
    threading.Thread(target=_end_with_parent, daemon=True).start()
    text = sys.stdin.buffer.read().decode("utf-8")
    out = sys.stdout.buffer
    try:
        prefixes = json.loads(sys.argv[2]) if len(sys.argv) > 2 else None
        result = ox.Store.read_only(sys.argv[1]).query(text, prefixes=prefixes)
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
