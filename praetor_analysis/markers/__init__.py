"""Formations, scatter, blast markers and templates -> exact hit distributions."""
