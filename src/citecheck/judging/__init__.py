"""Judging: the one verdict policy, the meaning guard, and whether a source supports a
claim (the support engine, its fitted model, judges)."""
