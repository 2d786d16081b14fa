"""The game's tables and special rules: what each rule does to one attack's dice."""
