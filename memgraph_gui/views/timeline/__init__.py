"""The timeline dock: every node in timeline order, filtered, with injection badges."""
