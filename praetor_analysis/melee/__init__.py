"""Blows and whole rounds of combat between two units."""
