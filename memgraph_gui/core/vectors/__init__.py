"""Embedding profiles and vector search over the store's nodes (issue 23, in progress)."""
