"""Independent brute-force oracle of the edition 3 chain (see brute.py); never imports praetor_analysis."""

from .brute import oracle_hh3

__all__ = ["oracle_hh3"]
