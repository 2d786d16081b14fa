"""``prob.token_rows`` over columns of flags, counts and texts only (branch ``mutants5``): each cell its own
token with its type, so ``1``, ``True`` and ``"1"`` stay apart (``_ATOMS``' docstring: equal in Python, not in a
document), and the keys are ``token_keys`` of the same dicts, as ``token_rows``' docstring says."""

from __future__ import annotations

from praetor_analysis.prob.memo import token_keys, token_rows


def test_an_atoms_column_keys_as_the_dicts_do() -> None:
    names = ["hits", "name"]
    columns = [[1, True, 1, None], ["1", "1", "a", "1"]]
    rows = [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]
    keys = token_rows(names, columns, 4)
    assert keys == token_keys(rows)
    assert keys[0] != keys[1]  # 1 and True: equal in Python, two documents
    assert len(set(keys)) == 4
