"""Numbers with no game words: the distribution value object and d6 primitives.

The face of ``prob/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "binomial_matrix": "praetor_analysis.prob.dice",
    "binomial_pmf": "praetor_analysis.prob.dice",
    "binomial_table": "praetor_analysis.prob.dice",
    "binomial_tables": "praetor_analysis.prob.dice",
    "BoundedMemo": "praetor_analysis.prob.memo",
    "Unkeyed": "praetor_analysis.prob.memo",
    "clear_memos": "praetor_analysis.prob.memo",
    "cleared_with_memos": "praetor_analysis.prob.memo",
    "compound": "praetor_analysis.prob.convolution",
    "compound_many": "praetor_analysis.prob.convolution",
    "convolve": "praetor_analysis.prob.convolution",
    "convolve_power": "praetor_analysis.prob.convolution",
    "convolve_powers": "praetor_analysis.prob.convolution",
    "convolve_powers_many": "praetor_analysis.prob.convolution",
    "frozen_key": "praetor_analysis.prob.memo",
    "MISSING": "praetor_analysis.prob.memo",
    "token_field": "praetor_analysis.prob.memo",
    "token_key": "praetor_analysis.prob.memo",
    "token_keys": "praetor_analysis.prob.memo",
    "token_of": "praetor_analysis.prob.memo",
    "token_rows": "praetor_analysis.prob.memo",
    "D6": "praetor_analysis.prob.dice",
    "DiceExpr": "praetor_analysis.prob.dice",
    "Dist": "praetor_analysis.prob.dist",
    "leadership_pass": "praetor_analysis.prob.dice",
    "p_at_least": "praetor_analysis.prob.dice",
    "parse_dice": "praetor_analysis.prob.dice",
    "probability": "praetor_analysis.prob.clip",
    "sum_of_iid": "praetor_analysis.prob.dice",
    "thin": "praetor_analysis.prob.dice",
    "thin_many": "praetor_analysis.prob.dice",
    "TrustedRows": "praetor_analysis.prob.dist",
    "THIN_MANY_TERMS": "praetor_analysis.prob.dice",
    "two_d6": "praetor_analysis.prob.dice",
}

__all__ = [
    "D6",
    "MISSING",
    "THIN_MANY_TERMS",
    "BoundedMemo",
    "DiceExpr",
    "Dist",
    "TrustedRows",
    "Unkeyed",
    "binomial_matrix",
    "binomial_pmf",
    "binomial_table",
    "binomial_tables",
    "clear_memos",
    "cleared_with_memos",
    "compound",
    "compound_many",
    "convolve",
    "convolve_power",
    "convolve_powers",
    "convolve_powers_many",
    "frozen_key",
    "leadership_pass",
    "p_at_least",
    "parse_dice",
    "probability",
    "sum_of_iid",
    "thin",
    "thin_many",
    "token_field",
    "token_key",
    "token_keys",
    "token_of",
    "token_rows",
    "two_d6",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.prob.clip import probability
    from praetor_analysis.prob.convolution import (
        compound,
        compound_many,
        convolve,
        convolve_power,
        convolve_powers,
        convolve_powers_many,
    )
    from praetor_analysis.prob.dice import (
        D6,
        THIN_MANY_TERMS,
        DiceExpr,
        binomial_matrix,
        binomial_pmf,
        binomial_table,
        binomial_tables,
        leadership_pass,
        p_at_least,
        parse_dice,
        sum_of_iid,
        thin,
        thin_many,
        two_d6,
    )
    from praetor_analysis.prob.dist import Dist, TrustedRows
    from praetor_analysis.prob.memo import (
        MISSING,
        BoundedMemo,
        Unkeyed,
        clear_memos,
        cleared_with_memos,
        frozen_key,
        token_field,
        token_key,
        token_keys,
        token_of,
        token_rows,
    )
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
