"""Armour penetration, hull points and the vehicle damage table."""
