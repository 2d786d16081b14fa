"""Sweeps, comparisons and list analysis -> tidy DataFrames."""
