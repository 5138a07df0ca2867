"""Embedding profiles: which embedder makes a store's vectors, and the store setting naming it.

The active profile is the graph meta key ``"embeddingProfile"``: a JSON object
``{"name", "kind", "baseUrl", "model", "dimensions"}`` (only ``name`` and ``kind`` required; a
bare string names a built-in profile). Setting it is an ordinary write (one undo step; other
processes see it). Kinds:

- ``"hashed"``: the offline default, ``hashed-ngrams-v1`` (``vectors.hashed``): no download, any
  script, deterministic;
- ``"model"``: a sentence-embedding model shipped in a package's wheel (``wordllama-l2-256``,
  the optional extra ``model``), loaded on first use;
- ``"endpoint"``: an OpenAI-compatible ``/embeddings`` endpoint (``baseUrl``, ``model``; the key
  from the environment or the OS keyring, never from the store).

Vectors are stored under the profile's ``key``, which changes whenever what makes them does (an
endpoint's URL, model or dimensions), so vectors of another model are never compared.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from memgraph_gui.core.domain.errors import MemgraphError, bad_args
from memgraph_gui.core.vectors import hashed

META_KEY = "embeddingProfile"
HASHED, MODEL, ENDPOINT = "hashed", "model", "endpoint"
KINDS = (HASHED, MODEL, ENDPOINT)
MODEL_PROFILE = "wordllama-l2-256"
MAX_NAME = 200


@dataclass(frozen=True, slots=True)
class ProfileSpec:
    """One embedding profile (see the module docstring)."""

    name: str
    kind: str
    base_url: str = ""
    model: str = ""
    dimensions: int | None = None

    @property
    def key(self) -> str:
        """What its vectors are stored under: the name, and for an endpoint what makes them."""
        if self.kind != ENDPOINT:
            return self.name
        return f"{self.name}|{self.base_url.rstrip('/')}|{self.model}|{self.dimensions or ''}"

    @property
    def local(self) -> bool:
        """True when embedding needs no network (cheap enough to do as each write commits)."""
        return self.kind != ENDPOINT

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.kind == ENDPOINT:
            out.update(baseUrl=self.base_url, model=self.model)
            if self.dimensions is not None:
                out["dimensions"] = self.dimensions
        return out


HASHED_SPEC = ProfileSpec(hashed.PROFILE, HASHED)
MODEL_SPEC = ProfileSpec(MODEL_PROFILE, MODEL)
BUILTIN: dict[str, ProfileSpec] = {HASHED_SPEC.name: HASHED_SPEC, MODEL_SPEC.name: MODEL_SPEC}


def parse_profile(value: Any, where: str = "embeddingProfile") -> ProfileSpec | None:
    """The profile a meta value (or an API argument) names; None for none (null, "").

    ``BAD_ARGS`` naming ``where`` for anything else than a known built-in's name or a well-formed
    object (an endpoint needs an http(s) ``baseUrl`` and a ``model``)."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        found = BUILTIN.get(value)
        if found is None:
            raise bad_args(
                f"{where}: unknown profile {value!r}; built-in profiles: {', '.join(BUILTIN)}"
            )
        return found
    if not isinstance(value, dict):
        raise bad_args(f"{where}: expected a profile name or object")
    name, kind = value.get("name"), value.get("kind", ENDPOINT if "baseUrl" in value else None)
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise bad_args(f"{where}.name: expected a non-empty string (at most {MAX_NAME})")
    if kind in (HASHED, MODEL):
        found = BUILTIN.get(name)
        if found is None or found.kind != kind:
            raise bad_args(f"{where}.name: no built-in {kind} profile {name!r}")
        return found
    if kind != ENDPOINT:
        raise bad_args(f"{where}.kind: expected one of {', '.join(KINDS)}")
    base_url, model = value.get("baseUrl"), value.get("model")
    if not isinstance(base_url, str) or not base_url.strip().startswith(("http://", "https://")):
        raise bad_args(f"{where}.baseUrl: expected an http:// or https:// URL")
    if not isinstance(model, str) or not model.strip():
        raise bad_args(f"{where}.model: expected the embedding model's name")
    dims = value.get("dimensions")
    if dims is not None and (type(dims) is not int or not 1 <= dims <= 65536):
        raise bad_args(f"{where}.dimensions: expected a whole number from 1 to 65536")
    return ProfileSpec(name.strip(), ENDPOINT, base_url.strip(), model.strip(), dims)


Cancel = threading.Event
Progress = Callable[[int, int], None]


class Embedder(Protocol):
    """Makes a profile's vectors. ``embed`` returns one unit-length float32 row per text (a zero
    row for an empty text); ``progress(done, total)`` after each batch; raises ``MemgraphError``
    ``EMBEDDING_FAILED`` (a clear message) or ``EMBEDDING_CANCELLED`` (``cancel`` was set),
    never a half-done result. Blocking; any thread but a GUI one for a remote profile."""

    spec: ProfileSpec

    def embed(
        self,
        texts: Sequence[str],
        *,
        cancel: Cancel | None = None,
        progress: Progress | None = None,
    ) -> np.ndarray: ...


HASHED_BATCH = 1024


class HashedEmbedder:
    """The offline default (``vectors.hashed``), in batches of ``HASHED_BATCH``."""

    spec = HASHED_SPEC

    def embed(
        self,
        texts: Sequence[str],
        *,
        cancel: Cancel | None = None,
        progress: Progress | None = None,
    ) -> np.ndarray:
        out = np.zeros((len(texts), hashed.DIM), np.float32)
        for start in range(0, len(texts), HASHED_BATCH):
            if cancel is not None and cancel.is_set():
                raise cancelled()
            stop = min(start + HASHED_BATCH, len(texts))
            out[start:stop] = hashed.embed(texts[start:stop])
            if progress is not None:
                progress(stop, len(texts))
        return out


def cancelled() -> MemgraphError:
    return MemgraphError("EMBEDDING_CANCELLED", "embedding was cancelled; nothing was stored")
