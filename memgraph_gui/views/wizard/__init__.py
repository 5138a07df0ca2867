"""The compaction wizard, the rollup review and the actions that open them."""
