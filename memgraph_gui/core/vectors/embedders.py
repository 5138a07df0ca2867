"""``embedder_for``: the embedder that makes a profile's vectors.

It sits above ``profiles`` and the embedders it picks from (``profiles.HashedEmbedder``,
``model.ModelEmbedder``, ``endpoint.EndpointEmbedder``), which import ``profiles`` themselves, so
the folder reads top-down. The model and endpoint embedders are imported on first need.
"""

from __future__ import annotations

from collections.abc import Callable

from memgraph_gui.core.vectors.profiles import (
    HASHED,
    MODEL,
    Embedder,
    HashedEmbedder,
    ProfileSpec,
)


def embedder_for(spec: ProfileSpec, *, api_key: Callable[[], str] | None = None) -> Embedder:
    """The embedder of ``spec`` (an endpoint's key from ``api_key``, else the environment or the
    OS keyring). Cheap: a model is loaded on its first ``embed``."""
    if spec.kind == HASHED:
        return HashedEmbedder()
    if spec.kind == MODEL:
        from memgraph_gui.core.vectors.model import ModelEmbedder

        return ModelEmbedder(spec)
    from memgraph_gui.core.vectors.endpoint import EndpointEmbedder
    from memgraph_gui.core.vectors.keys import endpoint_api_key

    return EndpointEmbedder(spec, api_key or endpoint_api_key)
