"""Independent brute-force oracle of the 3rd edition (MECHANICS-HH3.md), every die enumerated, exact.

Written from the contract alone (MECHANICS-HH3.md and SCENARIO.md's "Edition 3"), never from the engine:
`hh3_oracle(document)` returns every distribution as a list of `fractions.Fraction`.
"""

from .attack import hh3_oracle

__all__ = ["hh3_oracle"]
