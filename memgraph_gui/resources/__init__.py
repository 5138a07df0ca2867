"""Runtime package data (icons, styles) loaded through ``importlib.resources``."""
