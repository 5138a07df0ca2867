"""The in-memory graph and pure algorithms on it: topology, indexes, search, recall, briefs,
compaction. No SQL.
"""
