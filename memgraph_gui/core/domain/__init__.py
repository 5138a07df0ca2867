"""Value types and errors every layer shares: nodes, edges, ChangeSet, schema, injection state. No
I/O.
"""
