"""The generic generator (satgrid.generators.generic), driven here through a record that gives
Slitherlink the two parts it needs: the blank puzzle of a size and the clues read off a loop."""
from __future__ import annotations

import dataclasses
import random
import types

import pytest

from satgrid import api
from satgrid.generators.generic import GenericGenerator, for_genre
from satgrid.grid import Grid
from satgrid.registry import GENRES


def slitherlink_record():
    real = GENRES["slitherlink"]
    module = real.module

    def blank(rows, cols):
        return module.SlitherlinkPuzzle(tuple((None,) * cols for _ in range(rows)))

    def read_clues(puzzle, solution):
        horizontal, vertical = solution
        on = {("h", i, j) for i, row in enumerate(horizontal) for j, e in enumerate(row) if e}
        on |= {("v", i, j) for i, row in enumerate(vertical) for j, e in enumerate(row) if e}
        counts = {p: sum(s in on for s in Grid.sides(p)) for p in Grid.of(puzzle.rows, puzzle.cols).cells}
        return puzzle.with_clues(counts)

    parts = types.SimpleNamespace(**{name: getattr(module, name) for name in dir(module)
                                     if not name.startswith("__")}, BLANK=blank, READ_CLUES=read_clues)
    return dataclasses.replace(real, module=parts)


@pytest.mark.parametrize("seed", [1, 2])
def test_generic_generator_makes_unique_clue_minimal_puzzles(seed):
    record = slitherlink_record()
    generator = for_genre(record)
    assert isinstance(generator, GenericGenerator)
    puzzle = generator.generate(4, 5, random.Random(seed))
    assert (puzzle.rows, puzzle.cols) == (4, 5)
    result = api.solve(puzzle, audit=True)
    assert result.status == "unique" and result.minimal is True
    again = generator.generate(4, 5, random.Random(seed))
    assert again == puzzle  # a seed reproduces its puzzle


def test_genres_without_the_parts_have_no_generic_generator():
    assert for_genre(GENRES["sudoku"]) is None


def test_normal_flavour_keeps_puzzles_solvable_without_search():
    puzzle = for_genre(slitherlink_record()).generate(4, 4, random.Random(3), flavour="normal")
    result = api.solve(puzzle, unique=True)
    assert result.status == "unique"
    from satgrid.grading import grade
    assert grade(puzzle) in (0, 1)
