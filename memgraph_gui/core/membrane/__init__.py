"""Membrane's trust-aware retrieval over the store (``../shared/seeds/membrane-retrieval.txt``,
``../shared/membrane-readings.md``): records as nodes, every node's Membrane attributes, trust
tiers and redaction, ``retrieveGraph`` / ``retrieveByID``. Independent of ``luker`` and
``nuggets`` (it reads their nodes only through ``attributes``)."""
