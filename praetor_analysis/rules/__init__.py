"""Special rules, one small module per family."""
