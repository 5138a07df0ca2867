"""Persistence: the only package that imports sqlite3 (connection, migrations, rows, bulk load,
FTS, change log, history, watcher) plus safe file writes.
"""
