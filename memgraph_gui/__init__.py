"""memgraph-gui: browse, edit and curate an AI chat's long-term memory graph."""

__version__ = "0.1.0"
