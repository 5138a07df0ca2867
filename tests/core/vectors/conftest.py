"""Vector tests: ``embeddings_server`` is a running fake OpenAI-compatible embeddings endpoint
(tests/core/vectors/fake_embeddings_server.py)."""

from tests.core.vectors.fake_embeddings_server import embeddings_server

__all__ = ["embeddings_server"]
