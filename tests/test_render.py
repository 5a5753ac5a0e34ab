"""Drawings: every SVG parses, draws one clue per clue and one cell (Slitherlink: one dot) per
cell, the solution's digits, shaded cells or loop edges, a second solution beside the first with
exactly the differing cells or edges marked, and an audit's redundant clues; PNG through cairosvg;
the render command."""
from __future__ import annotations

import builtins
import types
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from satgrid import api, registry, render_svg
from satgrid.cli import main
from satgrid.errors import SatgridError
from satgrid.registry import GENRES, Genre

from .helpers import shared_file

ROOT = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def by_class(svg: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in svg.iter() if name in e.get("class", "").split()]


def panels(svg: ET.Element) -> list[ET.Element]:
    return by_class(svg, "panel")


def puzzles() -> list:
    out = []
    for example in ("sudoku.txt", "nurikabe.txt", "slitherlink.txt"):
        out += api.load([str(ROOT / "satgrid" / "data" / example)])
    out += api.load([str(shared_file("sudoku", "tatham.txt"))])[-2:]  # 9x9 and 16x16
    out += api.load([str(shared_file("nurikabe", "jwiki.txt"))])[-1:]  # 14x24
    return out


def drawn_clues(puzzle) -> int:
    return len(puzzle.numbers()) if puzzle.genre == "nurikabe" else len(puzzle.clues())


@pytest.mark.parametrize("with_solution", [False, True])
def test_each_drawing_has_its_clues_and_cells(with_solution):
    for puzzle in puzzles():
        solution = api.solve(puzzle).solution if with_solution else None
        svg = parse(render_svg.svg(puzzle, solution))
        assert svg.tag == NS + "svg"
        assert len(panels(svg)) == 1
        assert len(by_class(svg, "clue")) == drawn_clues(puzzle), puzzle.name
        labels = [e.text for e in by_class(svg, "clue")]
        if puzzle.genre == "slitherlink":
            assert len(by_class(svg, "dot")) == (puzzle.rows + 1) * (puzzle.cols + 1)
            assert sorted(labels) == sorted(str(k) for k in puzzle.clues().values())
            edges = sum(map(sum, solution[0])) + sum(map(sum, solution[1])) if solution else 0
            assert len(by_class(svg, "loop")) == edges
        else:
            assert len(by_class(svg, "cell")) == puzzle.rows * puzzle.cols
        if puzzle.genre == "sudoku":
            blanks = puzzle.size ** 2 - len(puzzle.clues())
            assert len(by_class(svg, "value")) == (blanks if solution else 0)
            assert len(by_class(svg, "box")) == puzzle.size // puzzle.box_width - 1 + puzzle.size // puzzle.box_height - 1
            if puzzle.symbols is None:
                assert sorted(labels) == sorted(str(v) for v in puzzle.clues().values())
        if puzzle.genre == "nurikabe":
            shaded = sum(row.count("#") for row in solution) if solution else 0
            assert len(by_class(svg, "shaded")) == shaded
            assert sorted(labels) == sorted(str(v) for v in puzzle.numbers().values())
        # sized by the grid
        assert float(svg.get("width")) == puzzle.cols * render_svg.CELL + 2 * render_svg.MARGIN
        assert float(svg.get("height")) == puzzle.rows * render_svg.CELL + 2 * render_svg.MARGIN


@pytest.mark.parametrize("text, what", [
    ("genre: slitherlink\n3.\n..\n", "edges"),
    ("genre: nurikabe\n. . .\n. 2 .\n. . .\n", "cells"),
    ("genre: sudoku\n12..\n..12\n....\n....\n", "cells"),
])
def test_a_second_solution_is_drawn_beside_with_the_differences(text, what):
    [puzzle] = api.load_text(text)
    result = api.solve(puzzle, unique=True)
    assert result.status == "multiple"
    svg = parse(render_svg.svg(puzzle, result.solution, result.second_solution))
    left, right = panels(svg)
    differences = result.genre.differences(puzzle, result.solution, result.second_solution)
    assert differences
    width = puzzle.cols * render_svg.CELL + 2 * render_svg.MARGIN
    assert float(svg.get("width")) == 2 * width + render_svg.GAP
    captions = [e.text for e in by_class(svg, "caption")]
    assert captions == ["solution 1", f"solution 2 ({len(differences)} {what} differ)"]
    if puzzle.genre == "slitherlink":
        # each panel marks its own loop edges that the other loop lacks
        marked = len(by_class(left, "diff")) + len(by_class(right, "diff"))
        assert marked == len(differences)
    else:
        for panel in (left, right):
            assert len([e for e in by_class(panel, "diff") if "cell" in e.get("class")]) == len(differences)
            assert len(by_class(panel, "clue")) == drawn_clues(puzzle)


def test_audit_marks_the_redundant_clues():
    [puzzle] = api.load_text("genre: sudoku\n12..\n3..2\n....\n.1.4\n")
    result = api.solve(puzzle, audit=True)
    assert result.status == "unique" and result.redundant_clues
    svg = parse(render_svg.svg(puzzle, redundant=result.redundant_clues))
    assert len(by_class(svg, "redundant")) == len(result.redundant_clues)
    out = CliRunner().invoke(main, ["render", "-", "--audit", "-o", "-"],
                             input="genre: sudoku\n12..\n3..2\n....\n.1.4\n")
    assert out.exit_code == 0, out.output
    assert len(by_class(parse(out.stdout), "redundant")) == len(result.redundant_clues)


def test_render_command_writes_svg_files(tmp_path):
    target = tmp_path / "loop.svg"
    out = CliRunner().invoke(main, ["render", "slither/5/5/cbcbcddad", "--solution", "-o", str(target)])
    assert out.exit_code == 0, out.output
    svg = parse(target.read_text())
    assert len(by_class(svg, "loop")) > 0 and len(by_class(svg, "clue")) == 9
    out = CliRunner().invoke(main, ["render", str(shared_file("nurikabe", "jwiki.txt")), "-o", str(tmp_path / "n.svg")])
    assert out.exit_code == 0 and len(list(tmp_path.glob("n-*.svg"))) == 7


def test_png_through_cairosvg(tmp_path):
    pytest.importorskip("cairosvg", reason="the png extra (cairosvg) is not installed")
    target = tmp_path / "sudoku.png"
    out = CliRunner().invoke(main, ["render", "sudoku/4/4/g1k23k3g", "--solution", "-o", str(target)])
    assert out.exit_code == 0, out.output
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_without_cairosvg_is_a_clear_error(tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_cairosvg(name, *args, **kwargs):
        if name == "cairosvg":
            raise ImportError("No module named 'cairosvg'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_cairosvg)
    with pytest.raises(SatgridError, match=r"PNG output needs the optional package cairosvg.*satgrid\[png\]"):
        render_svg.write("<svg/>", str(tmp_path / "x.png"))
    out = CliRunner().invoke(main, ["render", "sudoku/4/4/g1k23k3g", "-o", str(tmp_path / "y.png")])
    assert out.exit_code == 1 and out.stderr.startswith("satgrid: error: PNG output needs")


def test_a_second_loop_is_described_by_its_edges():
    [puzzle] = api.load_text("genre: slitherlink\n..\n..\n")
    result = api.solve(puzzle, unique=True)
    assert result.status == "multiple"
    drawing = render_svg.svg(puzzle, result.solution, result.second_solution, title="blank 2x2")
    assert "edges differ)" in drawing and "red = edges that differ" in drawing
    assert "cells" not in drawing


@pytest.mark.parametrize("name", sorted(GENRES))
def test_every_genre_draws_its_examples(name):
    """Every registry genre declares DRAW; its examples draw with and without their solution."""
    genre = GENRES[name]
    assert callable(genre.part("DRAW")), f"{name} declares no DRAW"
    for puzzle in api.load([str(ROOT / "satgrid" / "data" / genre.examples)]):
        result = api.solve(puzzle, unique=True)
        for solution in (None, result.solution):
            svg = parse(render_svg.svg(puzzle, solution, title=puzzle.name))
            # the givens drawn: clues, or the room borders of a genre whose rooms are all it gives
            assert len(panels(svg)) == 1 and (by_class(svg, "clue") or by_class(svg, "box")), puzzle.name
            assert float(svg.get("width")) >= puzzle.cols * render_svg.CELL + 2 * render_svg.MARGIN


# -- a genre drawn from the generic parts alone: pearls and a loop through cell centres -----------
@dataclass(frozen=True)
class PearlPuzzle:
    """A Masyu-like puzzle for drawing: pearls ("white"/"black") by cell; a solution is a set of
    links ``(p, q)`` between side-neighbouring cells."""

    pearls: dict
    rows: int = 3
    cols: int = 3
    name: str = "pearls"
    genre = "pearls-test"

    def clues(self) -> dict:
        return self.pearls


def draw_pearls(puzzle, solution, marks):
    return [*render_svg.cells(puzzle, marks, puzzle.pearls), *render_svg.border(puzzle),
            *render_svg.centre_lines(solution or (), marks), *render_svg.circles(puzzle.pearls)]


RING = [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 2), (1, 2)), ((1, 2), (2, 2)), ((2, 2), (2, 1)),
        ((2, 1), (2, 0)), ((2, 0), (1, 0)), ((1, 0), (0, 0))]
SMALL = [((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 1), (1, 0)), ((1, 0), (0, 0))]


@pytest.fixture
def pearl_genre(monkeypatch):
    module = types.ModuleType("pearls_test")
    module.DRAW = draw_pearls
    links = lambda solution: {tuple(sorted(link)) for link in solution}  # noqa: E731
    differences = lambda puzzle, a, b: sorted(links(a) ^ links(b))  # noqa: E731
    unused = lambda *args: None  # noqa: E731
    genre = Genre("pearls-test", "", unused, unused, unused, unused, unused, unused, unused, unused,
                  unused, unused, differences, "", unused, unused, unused, unused, module)
    monkeypatch.setitem(registry.GENRES, "pearls-test", genre)
    return genre


def test_a_genre_draws_circles_and_a_centre_loop_from_the_parts(pearl_genre):
    puzzle = PearlPuzzle({(0, 0): "white", (2, 2): "black", (1, 0): "black"})
    svg = parse(render_svg.svg(puzzle, RING, redundant=[(2, 2)]))
    assert len(by_class(svg, "cell")) == 9 and len(by_class(svg, "clue")) == 3
    assert len(by_class(svg, "black-circle")) == 2 and len(by_class(svg, "white-circle")) == 1
    assert [e.get("fill") for e in by_class(svg, "black-circle")] == [render_svg.INK] * 2
    loop = by_class(svg, "loop")
    assert len(loop) == len(RING)
    # each link joins two cell centres one cell apart
    half = render_svg.CELL / 2
    for line in loop:
        x1, y1, x2, y2 = (float(line.get(a)) for a in ("x1", "y1", "x2", "y2"))
        assert (x1 - half) % render_svg.CELL == 0 and (y2 - half) % render_svg.CELL == 0
        assert abs(x1 - x2) + abs(y1 - y2) == render_svg.CELL
    assert [e.get("class") for e in by_class(svg, "redundant")] == ["cell redundant"]
    # a second solution: the links in one loop only are red in both panels
    two = parse(render_svg.svg(puzzle, RING, SMALL))
    left, right = panels(two)
    differ = set(pearl_genre.differences(puzzle, RING, SMALL))
    assert len(by_class(left, "diff")) == len({tuple(sorted(x)) for x in RING} & differ) == 6
    assert len(by_class(right, "diff")) == len({tuple(sorted(x)) for x in SMALL} & differ) == 2
    assert "solution 2 (8 links differ)" in render_svg.svg(puzzle, RING, SMALL)


def test_a_genre_without_a_drawing_is_a_clear_error(pearl_genre, monkeypatch):
    monkeypatch.delattr(pearl_genre.module, "DRAW")
    with pytest.raises(SatgridError, match="no drawing for genre pearls-test"):
        render_svg.svg(PearlPuzzle({}))


def test_room_borders_are_maximal_runs():
    """Irregular rooms: one bold line per straight stretch of wall, none inside a room."""
    rooms = ["aab", "abb", "ccc"]
    puzzle = PearlPuzzle({})
    lines = [parse(f'<svg xmlns="http://www.w3.org/2000/svg">{e}</svg>')[0]
             for e in render_svg.room_borders(puzzle, lambda r, c: rooms[r][c])]
    segments = {tuple(int(float(e.get(a))) // render_svg.CELL for a in ("x1", "y1", "x2", "y2")) for e in lines}
    assert segments == {(2, 0, 2, 1), (1, 1, 1, 2), (1, 1, 2, 1), (0, 2, 3, 2)} and len(lines) == 4
