"""The Nuggets note layer over the store (``../shared/seeds/nuggets-graph-layer.txt``).

A note is a node of the store (``model``) and a note link an edge, so every pane, undo and the
watcher serve notes without a second code path. This package stands beside ``core.luker`` and
never imports it.
"""
