"""A unit as fielded (a datasheet or a roster entry), how it attacks, and what its attack does."""
