"""``engine.merge_short`` (branch ``mutants5``): which blocks the batch computes together, as its docstring says:
the blocks of short hits (up to ``THIN_MANY_TERMS`` entries, that width included) join the narrowest wider block,
or one another when there is none; a lone block, or no short block, is left as it is."""

from __future__ import annotations

from praetor_analysis.engine.batch_cell import Block, merge_short
from praetor_analysis.prob import THIN_MANY_TERMS

T = THIN_MANY_TERMS


def _blocks(*widths: int) -> dict[int, Block]:
    out = {}
    for i, width in enumerate(widths):
        block = out[width] = Block()
        block.indices.append(i)
    return out


def _shape(blocks: dict[int, Block]) -> dict[int, list[int]]:
    return {width: sorted(block.indices) for width, block in blocks.items()}


def test_a_block_of_exactly_thin_many_terms_is_short() -> None:
    # One short block (width T) beside a wide one: joined to it.
    assert _shape(merge_short(_blocks(T, T + 8))) == {T + 8: [0, 1]}


def test_short_blocks_join_the_narrowest_wider_block() -> None:
    assert _shape(merge_short(_blocks(2, T, T + 8, T + 20))) == {T + 8: [0, 1, 2], T + 20: [3]}


def test_short_blocks_alone_join_the_widest_of_them() -> None:
    assert _shape(merge_short(_blocks(2, 5, T))) == {T: [0, 1, 2]}


def test_nothing_to_merge() -> None:
    assert _shape(merge_short(_blocks(3))) == {3: [0]}
    assert _shape(merge_short(_blocks(T + 1, T + 8))) == {T + 1: [0], T + 8: [1]}
