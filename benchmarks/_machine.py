"""What a benchmark's figures were measured on, and how they are written: shared by every script."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path


def machine(*packages: str, model: str | None = None) -> dict[str, object]:
    """CPU, memory, OS, Python, the versions of ``packages`` (and spaCy ``model``), date and load.

    The load average is there because the figures are only comparable between runs on
    an equally busy machine.
    """
    cpu = platform.processor() or ""
    try:
        cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                    if line.startswith("model name")), cpu)
    except OSError:
        pass
    try:
        memory: float | None = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        memory = None
    described: dict[str, object] = {
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "memory_gib": memory,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
    }
    for package in ("kg", *packages):
        try:
            described[package] = version(package)
        except PackageNotFoundError:
            described[package] = None
    if model is not None:
        import spacy

        described["model"] = f"{model} {spacy.util.get_package_version(model) or ''}".strip()
    return described


def save_result(path: Path, result: dict[str, object]) -> None:
    """Write a benchmark's figures (with the machine described in them) as indented JSON, and say where."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {path}")
