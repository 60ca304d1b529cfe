"""The query page at ``/``: the named queries filled in, and a Content-Security-Policy allowing only its inline parts."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from importlib.resources import files

from kg.server.config import ServerConfig

__all__ = ["page"]


def page(config: ServerConfig) -> tuple[bytes, str]:
    """The query page with the named queries filled in, and the Content-Security-Policy allowing its inline parts."""
    from kg import queries

    examples = [{"name": n, "question": queries.describe(n), "sparql": queries.load(n)} for n in queries.names()]
    settings = {"examples": examples, "timeout": config.timeout, "maxResults": config.max_results}
    # inside <script>, "<", ">" and "&" must not appear raw: "</script>" in a query would end the block
    data = json.dumps(settings, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    page = files("kg").joinpath("_assets/sparql.html").read_text(encoding="utf-8").replace("__KG_SETTINGS__", data)
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    policy = "; ".join(
        [
            "default-src 'none'",
            "script-src " + " ".join(_csp_hash(s) for s in scripts),
            "style-src " + " ".join(_csp_hash(s) for s in styles),
            "connect-src 'self'",
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ]
    )
    return page.encode("utf-8"), policy


def _csp_hash(text: str) -> str:
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"
