"""Numbers with no game words: the distribution value object and d6 primitives."""
