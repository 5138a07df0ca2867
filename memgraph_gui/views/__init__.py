"""Widgets; they talk only to ``memgraph_gui.app``."""
