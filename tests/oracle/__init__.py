"""Independent brute-force oracle for the tests: every die enumerated, exact (see enumerate.py)."""

from .enumerate import oracle_calc, oracle_calc_exact, oracle_sequence, oracle_sequence_exact

__all__ = ["oracle_calc", "oracle_calc_exact", "oracle_sequence", "oracle_sequence_exact"]
