"""Datasheet text -> typed Weapon and Unit records."""
