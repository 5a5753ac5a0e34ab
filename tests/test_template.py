"""The TEMPLATE genre (satgrid/genres/TEMPLATE/, not in the registry) works through every path a
registered genre takes, once registered: it is a genre a newcomer can copy as it is."""
from __future__ import annotations

import random

import pytest

from satgrid import api, dimacs, formats, registry, render_svg
from satgrid.generators.generic import for_genre
from satgrid.genres import TEMPLATE
from satgrid.model import statement_lines

from .test_genres import MAX_RULES_LINES


@pytest.fixture
def registered(monkeypatch):
    genre = registry.Genre.from_module(TEMPLATE)
    monkeypatch.setitem(registry.GENRES, TEMPLATE.NAME, genre)
    return genre


@pytest.mark.parametrize("text, status, solution", TEMPLATE.SAMPLES)
def test_template_samples_through_the_pipeline(registered, text, status, solution):
    [puzzle] = api.load_text(text, "<template>", TEMPLATE.NAME)
    result = api.solve(puzzle, unique=True)
    assert result.status == status
    if solution is not None:
        assert result.solution == solution
        assert api.solve(puzzle, audit=True).minimal is not None
    export = dimacs.build(puzzle, "eager")
    assert export.text.startswith("c") or export.text.startswith("p")
    [again] = api.load_text(formats.write(puzzle, "text"), "<again>", TEMPLATE.NAME)
    assert again.clues() == puzzle.clues()
    assert "<svg" in render_svg.svg(puzzle, solution)


def test_template_checker_rejects_broken_solutions(registered):
    [puzzle] = api.load_text("1 1\n. 1\n", "<template>", TEMPLATE.NAME)
    assert registered.check(puzzle, ("..", "*.")) == []
    assert registered.check(puzzle, ("..", "..")) != []
    assert registered.check(puzzle, ("*.", "*.")) != []


def test_template_generates_with_the_generic_generator(registered):
    puzzle = for_genre(registered).generate(4, 4, random.Random(5))
    result = api.solve(puzzle, audit=True)
    assert result.status == "unique" and result.minimal is True


def test_template_rules_are_short():
    assert statement_lines(TEMPLATE.rules) <= MAX_RULES_LINES
