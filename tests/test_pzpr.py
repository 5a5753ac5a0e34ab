"""Cross-checks against the real puzz.link engine: the npm package pzpr 0.10.1 under node
(``make pzpr`` installs it into tests/node/; tests/pzpr_engine.py drives it).

* every URL satgrid writes opens in pzpr to the same clues (and pzpr writes the same body back);
* pzpr's checker accepts every solution satgrid writes as pzprv3 as complete and correct, for all
  three genres, on the shared real puzzles, and rejects a solution with one cell or edge changed;
* satgrid reads the URLs and the pzprv3 files (answers included) that pzpr writes.
All puzzles go to one node process, so the whole module costs a few seconds.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from satgrid import api
from satgrid.formats import puzzlink, pzprv3
from satgrid.genres.nurikabe import NurikabePuzzle
from satgrid.genres.slitherlink import SlitherlinkPuzzle
from satgrid.genres.sudoku import PUZZLINK_BOX, SudokuPuzzle
from satgrid.registry import GENRES

from . import pzpr_engine
from .helpers import run_pzpr, shared_file

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    pzpr_engine.NODE is None, reason="node is not installed: the puzz.link engine (npm pzpr) cannot "
                                     "run, so URLs and pzprv3 answers are not cross-checked against it")


def qnums(puzzle) -> list[int]:
    grid = puzzle.grid if puzzle.genre == "nurikabe" else puzzle.givens
    return [-1 if v is None else -2 if v == "?" else v for row in grid for v in row]


def real_puzzles() -> list:
    """The shared puzzles with known solutions puzz.link can hold, and the bundled examples."""
    puzzles = []
    for genre, name in (("sudoku", "tatham.txt"), ("nurikabe", "jwiki.txt"), ("slitherlink", "tatham.txt")):
        puzzles += api.load([str(shared_file(genre, name))])
    lines = shared_file("sudoku", "hui_j.txt").read_text().splitlines()
    puzzles += [api.load_text(line.split()[1], genre="sudoku")[0] for line in lines if line and line[0] != "#"]
    for example in ("sudoku.txt", "nurikabe.txt", "slitherlink.txt"):
        puzzles += api.load([str(ROOT / "satgrid" / "data" / example)])
    return [p for p in puzzles if p.genre != "sudoku"
            or PUZZLINK_BOX.get(p.size) == (p.box_height, p.box_width)]


@pytest.fixture(scope="module")
def checked():
    """(puzzle, satgrid's solution, pzpr's report on the URL, on the answer file, on a broken answer)."""
    puzzles = real_puzzles()
    solutions = [api.solve(p).solution for p in puzzles]
    broken = [pzprv3.write(p, _break(p, s)) for p, s in zip(puzzles, solutions)]
    items = [puzzlink.encode(p) for p in puzzles] + [pzprv3.write(p, s) for p, s in zip(puzzles, solutions)] + broken
    reports = run_pzpr(items)
    n = len(puzzles)
    return list(zip(puzzles, solutions, reports[:n], reports[n:2 * n], reports[2 * n:]))


def _break(puzzle, solution):
    """The solution with one cell (or one loop edge) changed."""
    if puzzle.genre == "sudoku":
        r, c = next((r, c) for r in range(puzzle.size) for c in range(puzzle.size) if puzzle.givens[r][c] is None)
        rows = [list(row) for row in solution]
        rows[r][c] = rows[r][c] % puzzle.size + 1
        return tuple(map(tuple, rows))
    if puzzle.genre == "nurikabe":
        r, c = next((r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if solution[r][c] == "#")
        return tuple(row if i != r else row[:c] + "." + row[c + 1:] for i, row in enumerate(solution))
    horizontal, vertical = solution
    j = horizontal[0].index(1)
    return (((*horizontal[0][:j], 0, *horizontal[0][j + 1:]),) + horizontal[1:], vertical)


def test_the_real_puzzles_cover_all_three_genres(checked):
    genres = [p.genre for p, *_ in checked]
    assert {g: genres.count(g) for g in set(genres)} == {"sudoku": 26, "nurikabe": 10, "slitherlink": 16}


def test_every_url_satgrid_writes_opens_in_pzpr_to_the_same_clues(checked):
    for puzzle, _, report, _, _ in checked:
        assert "error" not in report, report
        assert report["pid"] == GENRES[puzzle.genre].part("PUZZLINK").pid
        assert (report["rows"], report["cols"]) == (puzzle.rows, puzzle.cols)
        assert report["clues"] == qnums(puzzle), puzzle.name
        # pzpr writes the same body back (only its address differs)
        assert report["url"].split("?", 1)[1] == puzzlink.encode(puzzle).split("?", 1)[1]


def test_pzpr_accepts_every_solution_satgrid_writes_as_pzprv3(checked):
    for puzzle, _, _, report, _ in checked:
        assert "error" not in report, report
        assert report["clues"] == qnums(puzzle)
        assert report["complete"] is True, (puzzle.genre, puzzle.name, report["text"])


def test_pzpr_rejects_a_solution_with_one_change(checked):
    for puzzle, _, _, _, report in checked:
        assert report["complete"] is False, (puzzle.genre, puzzle.name)


def test_satgrid_reads_the_urls_and_answer_files_pzpr_writes(checked):
    for puzzle, solution, url_report, file_report, _ in checked:
        assert url_report["url"].startswith("http://pzv.jp/p.html?")
        [again] = api.load_text(url_report["url"])
        assert qnums(again) == qnums(puzzle)
        [loaded] = pzprv3.read(file_report["file"])
        assert qnums(loaded.puzzle) == qnums(puzzle) and loaded.solution == solution


def test_formats_md_vectors_in_pzpr():
    nurikabe = "pzprv3/nurikabe/5/5/+ 5 # # # /+ # 2 + # /+ # # # # /+ # 1 # . /# # # 3 . /".replace("/", "\n")
    urls = ["sudoku/4/4/g1k23k3g", "nurikabe/5/5/g5k2o1k3g", "slither/5/5/cbcbcddad",
            "sudoku/9/9/m1g4o2q5g4g7h8i3j1g9j3h4h2i5g1n8g6i", "slither/7/7/0ck22cdci7c32c7787bhb"]
    reports = run_pzpr(urls + [nurikabe])
    for url, report in zip(urls, reports):
        assert report["clues"] == qnums(puzzlink.decode(url)), url
        assert report["url"].endswith("?" + url)
    assert reports[-1]["complete"] is True
    [loaded] = pzprv3.read(nurikabe)
    assert api.solve(loaded.puzzle, unique=True).solution == loaded.solution


def test_random_grids_encode_as_pzpr_encodes_them():
    """Wide numbers, '?' clues, long runs, clues in the last cells: pzpr reads satgrid's URL to the
    same clues and writes the same body."""
    rng = random.Random(7)
    puzzles = []
    for _ in range(40):
        rows, cols = rng.randint(1, 24), rng.randint(1, 24)
        density = rng.choice([0.02, 0.2, 0.6, 1.0])
        grid = tuple(tuple((rng.choice([rng.randint(1, 15), rng.randint(16, 255), rng.randint(256, max(256, rows * cols)), "?"])
                            if rng.random() < density else None) for _ in range(cols)) for _ in range(rows))
        grid = tuple(tuple(v if v is None or v == "?" or v <= rows * cols else 1 for v in row) for row in grid)
        puzzles.append(NurikabePuzzle(grid))
        clues = tuple(tuple(rng.randint(0, 4) if rng.random() < density else None for _ in range(cols))
                      for _ in range(rows))
        puzzles.append(SlitherlinkPuzzle(clues))
    for size, box in PUZZLINK_BOX.items():
        puzzles.append(SudokuPuzzle(tuple(tuple(rng.randint(1, size) if rng.random() < 0.4 else None
                                                for _ in range(size)) for _ in range(size)), *box))
    reports = run_pzpr([puzzlink.encode(p) for p in puzzles])
    for puzzle, report in zip(puzzles, reports):
        assert report["clues"] == qnums(puzzle)
        assert report["url"].split("?", 1)[1] == puzzlink.encode(puzzle).split("?", 1)[1]
        back = puzzlink.decode(report["url"]) if puzzle.genre != "sudoku" else None
        assert back is None or qnums(back) == qnums(puzzle)


def test_the_circle_body_reads_and_writes_as_pzpr_does():
    """The circle body (pzprjs's ``decodeCircle``, used by mashu) on random grids: pzpr opens the
    body satgrid writes to the same circles and writes the same body back; satgrid reads pzpr's."""
    rng = random.Random(11)
    grids = []
    for _ in range(30):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        density = rng.choice([0.0, 0.3, 1.0])
        grids.append((rows, cols, [rng.choice([1, 2]) if rng.random() < density else None for _ in range(rows * cols)]))
    urls = [f"https://puzz.link/p?mashu/{cols}/{rows}/{puzzlink.CIRCLES.encode(cells)}" for rows, cols, cells in grids]
    reports = run_pzpr(urls)
    for (rows, cols, cells), url, report in zip(grids, urls, reports):
        assert report["clues"] == [-1 if v is None else v for v in cells], url
        body = report["url"].split("/", 6)[-1]
        assert report["url"].split("?", 1)[1] == url.split("?", 1)[1]
        decoded, end = puzzlink.CIRCLES.decode(body, rows * cols, lambda i, m: AssertionError(m))
        assert [v for v, _ in decoded] == cells and end == len(body)


def test_a_number_body_declared_from_parameters_reads_and_writes_as_pzpr_does():
    """pzprjs's ``decodeHitori`` declared as ``puzzlink.numbers(...)``: pzpr opens the bodies it
    writes to the same numbers and writes them back alike (numbers 16-35 left out: pzprjs writes
    them as '-' and one digit, which its own decoder misreads)."""
    body = puzzlink.numbers("base36", base=36, wide=(("-", 2, 0),), read_only=(), unknown="%", runs=None, blank=".")
    rng = random.Random(13)
    grids = []
    for _ in range(30):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        grids.append((rows, cols, [rng.choice([None, "?", rng.randint(1, 15), rng.randint(36, 255)])
                                   for _ in range(rows * cols)]))
    urls = [f"https://puzz.link/p?hitori/{cols}/{rows}/{body.encode(cells)}" for rows, cols, cells in grids]
    for (rows, cols, cells), url, report in zip(grids, urls, run_pzpr(urls)):
        assert report["clues"] == [-1 if v is None else -2 if v == "?" else v for v in cells], url
        assert report["url"].split("?", 1)[1].rstrip("/") == url.split("?", 1)[1]  # '/' after a '.' or '%'
