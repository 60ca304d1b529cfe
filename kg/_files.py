"""Writing output files all or nothing: the one way kg writes a file a user asked for."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

from kg.errors import GraphError


def write_atomic(target: Path, write: Callable[[IO[bytes]], object]) -> Path:
    """Write through a temporary file in the target's folder, then rename over the target.

    No reader ever sees half a file, and a failed write leaves the old file (or none)
    and no temporary behind. The new file gets the mode the old one had, else the one
    a plain ``open()`` would give. Missing folders on the way are made first: users
    write ``-o out/graph.ttl`` on a fresh clone, where ``out/`` does not exist yet.

    Raises:
        GraphError: naming the target when it cannot be written (a folder, a file
            where a folder should be, no permission).
    """
    if target.is_dir():
        raise GraphError(f"{target}: is a folder, not a file; name a file in it")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        blocking = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
        problem = f"{blocking} is a file, not a folder" if blocking is not None else err.strerror or err
        raise GraphError(f"{target}: cannot make its folder: {problem}") from err
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise GraphError(f"{target}: cannot write: {err.strerror or err}") from err
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
        # mkstemp makes the file private; give it the mode a plain open() would have.
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException as err:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise GraphError(f"{target}: cannot write: {err.strerror or err}") from err
        raise
    return target


def _umask() -> int:
    """The process umask (reading it means setting it, so it is put straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
