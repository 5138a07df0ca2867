"""Qt without widgets: the application model, settings and workers."""
