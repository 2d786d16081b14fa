"""The exact wound chain: hits -> wounds -> saves -> allocation on units with Toughness and Wounds."""
