"""The model embedding profile: WordLlama's ``l2_supercat`` 256-dimension word embeddings.

WordLlama (the optional extra ``model``: ``pip install 'memgraph-gui[model]'``) ships its
weights (``wordllama/weights/l2_supercat_256.safetensors``, 32,000 tokens × 256, float16) and its
tokenizer (``wordllama/tokenizers/l2_supercat_tokenizer_config.json``, Llama 2's) in its wheel.
We read those two files straight from the installed package with ``tokenizers`` and
``safetensors`` (its own dependencies) and never import ``wordllama`` itself: its
``WordLlama.load()`` looks for the tokenizer under a folder name the wheel does not use and then
downloads it from the network, and importing it reconfigures the root logger. The embedding is
WordLlama's own: the mean of the text's token vectors, scaled to unit length (a sparse
token-count matrix times the weights, so long texts need no padding).

Loaded once per process, lazily and thread-safely, on the first ``embed()`` (about 0.2 s, 33 MB).
The package missing gives ``MemgraphError("EMBEDDING_MODEL_MISSING", ...)`` naming the install
command; the app and the rest of core work without it. Deterministic; any thread.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.vectors.profiles import MODEL_PROFILE, ProfileSpec, cancelled

PROFILE = MODEL_PROFILE
"""The profile's name in a store's settings."""
DIM = 256
CHUNK = 512
"""Texts embedded between two looks at ``cancel`` (and two ``progress`` calls)."""
INSTALL = "pip install 'memgraph-gui[model]'"
_WEIGHTS = ("weights", "l2_supercat_256.safetensors")
_TOKENIZER = ("tokenizers", "l2_supercat_tokenizer_config.json")


@dataclass(frozen=True, slots=True)
class _Model:
    tokenizer: Any  # tokenizers.Tokenizer, no padding, no truncation
    weights: np.ndarray  # vocabulary × DIM, float32


class _Lazy:
    """The model, loaded at most once per process (a failed load is tried again next time)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._model: _Model | None = None

    def get(self) -> _Model:
        with self._lock:
            if self._model is None:
                self._model = _load()
            return self._model


_cache = _Lazy()


def model_available() -> bool:
    """Whether the ``model`` extra is installed (cheap: nothing is imported or loaded)."""
    try:
        return all(importlib.util.find_spec(n) for n in ("wordllama", "tokenizers", "safetensors"))
    except (ImportError, ValueError):
        return False


class ModelEmbedder:
    """Embeds texts with the WordLlama model (see the module docstring). Any thread; the model
    is shared by every instance in the process."""

    def __init__(self, spec: ProfileSpec) -> None:
        self.spec = spec
        self.dim = DIM

    def embed(
        self,
        texts: Sequence[str],
        *,
        cancel: threading.Event | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> np.ndarray:
        """One unit-length float32 row of ``DIM`` per text (a zero row for an empty or
        whitespace-only text), in chunks of ``CHUNK`` texts with ``progress(done, total)`` after
        each. Raises ``MemgraphError`` ``EMBEDDING_MODEL_MISSING`` (the package is not
        installed), ``EMBEDDING_FAILED`` (its files cannot be read) or ``EMBEDDING_CANCELLED``."""
        total = len(texts)
        out = np.zeros((total, DIM), np.float32)
        if total == 0:
            return out
        model = _cache.get()
        for start in range(0, total, CHUNK):
            if cancel is not None and cancel.is_set():
                raise cancelled()
            chunk = texts[start : start + CHUNK]
            out[start : start + len(chunk)] = _embed(model, chunk)
            if progress is not None:
                progress(start + len(chunk), total)
        return out


def _embed(model: _Model, texts: Sequence[str]) -> np.ndarray:
    """The unit-length mean token vector of each text (zero for a text with no tokens)."""
    encodings = model.tokenizer.encode_batch(
        [t if t.strip() else "" for t in texts], add_special_tokens=False
    )
    lengths = np.fromiter((len(e.ids) for e in encodings), np.int64, len(encodings))
    indptr = np.zeros(len(encodings) + 1, np.int64)
    np.cumsum(lengths, out=indptr[1:])
    ids = np.fromiter((i for e in encodings for i in e.ids), np.int64, int(indptr[-1]))
    np.clip(ids, 0, model.weights.shape[0] - 1, out=ids)
    counts = scipy.sparse.csr_matrix(
        (np.ones(len(ids), np.float32), ids, indptr),
        shape=(len(encodings), model.weights.shape[0]),
    )
    sums = np.asarray(counts @ model.weights, dtype=np.float32)
    norms = np.linalg.norm(sums, axis=1, keepdims=True)
    np.divide(sums, norms, out=sums, where=norms > 0)
    return sums


def _package_root() -> Path:
    """The installed wordllama package's folder (nothing is imported). Raises
    ``EMBEDDING_MODEL_MISSING``."""
    try:
        spec = importlib.util.find_spec("wordllama")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise _missing()
    return Path(next(iter(spec.submodule_search_locations)))


def _load() -> _Model:
    """Read the tokenizer and the weights from the installed wordllama package."""
    root = _package_root()
    try:
        tokenizers = importlib.import_module("tokenizers")
        safetensors_numpy = importlib.import_module("safetensors.numpy")
    except ImportError as exc:
        raise _missing() from exc
    try:
        tokenizer = tokenizers.Tokenizer.from_file(str(root.joinpath(*_TOKENIZER)))
        tokenizer.no_padding()
        tokenizer.no_truncation()
        weights = safetensors_numpy.load_file(str(root.joinpath(*_WEIGHTS)))["embedding.weight"]
    except Exception as exc:  # a file missing or damaged in the installed package
        raise MemgraphError(
            "EMBEDDING_FAILED",
            f"The WordLlama model files in {root} could not be read ({exc}). Reinstall them "
            f"with: {INSTALL}",
        ) from exc
    return _Model(tokenizer, np.ascontiguousarray(weights, dtype=np.float32))


def _missing() -> MemgraphError:
    return MemgraphError(
        "EMBEDDING_MODEL_MISSING",
        f"The embedding profile {PROFILE!r} needs the WordLlama model, which is not installed. "
        f"Install it with: {INSTALL}",
    )
