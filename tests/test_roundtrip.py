"""Round trips (issue 17 items 12 and 14): what ``generate``, ``solve`` and ``audit`` print, in
text and in JSON lines, is input ``solve``, ``audit`` and ``convert`` read back; sizes are
ROWSxCOLS in options and output alike. Every run is a real subprocess."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: A non-square size for the genres that allow one, so rows and columns cannot be swapped unseen.
SIZES = {"sudoku": (4, 4), "slitherlink": (4, 6), "nurikabe": (5, 3)}


def satgrid(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "satgrid", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc


def generated(tmp_path: Path, genre: str, fmt: str, count: int = 2) -> tuple[Path, list[dict]]:
    """``generate`` output written to a file, and the JSON records of the same run."""
    rows, cols = SIZES[genre]
    args = ["generate", genre, "--size", f"{rows}x{cols}", "--seed", "3", "--count", str(count)]
    out = satgrid(*args, "--format", fmt).stdout
    path = tmp_path / f"{genre}.{'jsonl' if fmt == 'json' else 'txt'}"
    path.write_text(out)
    records = [json.loads(line) for line in satgrid(*args, "--format", "json").stdout.splitlines()]
    return path, records


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("genre", list(SIZES))
def test_generate_output_reads_back_into_solve_audit_and_convert(tmp_path: Path, genre: str, fmt: str) -> None:
    path, records = generated(tmp_path, genre, fmt)
    solved = [json.loads(line) for line in satgrid("solve", str(path), "--unique", "--format", "json").stdout.splitlines()]
    assert [s["id"] for s in solved] == [r["id"] for r in records]
    for again, record in zip(solved, records):
        assert again["genre"] == genre and again["status"] == "unique"
        assert (again["rows"], again["cols"]) == SIZES[genre]
        assert again["puzzle"] == record["puzzle"] and again["solution"] == record["solution"]
    audited = [json.loads(line) for line in satgrid("audit", str(path), "--format", "json").stdout.splitlines()]
    assert [a["minimal"] for a in audited] == [r["minimal"] for r in records]
    for target in ("text", "url"):
        converted = tmp_path / f"converted.{target}"
        converted.write_text(satgrid("convert", str(path), "--to", target).stdout)
        back = [json.loads(line) for line in satgrid("solve", str(converted), "--format", "json").stdout.splitlines()]
        assert [b["puzzle"] for b in back] == [r["puzzle"] for r in records]


@pytest.mark.parametrize("genre", list(SIZES))
def test_result_lines_of_solve_and_audit_are_valid_input(tmp_path: Path, genre: str) -> None:
    """A batch re-audited from its own JSON lines keeps ids, puzzles and solutions."""
    path, records = generated(tmp_path, genre, "text")
    first = tmp_path / "first.jsonl"
    first.write_text(satgrid("audit", str(path), "--format", "json").stdout)
    second = [json.loads(line) for line in satgrid("audit", str(first), "--format", "json").stdout.splitlines()]
    before = [json.loads(line) for line in first.read_text().splitlines()]
    for a, b in zip(before, second):
        for key in ("id", "genre", "rows", "cols", "puzzle", "solution", "status", "redundant_clues"):
            assert a[key] == b[key], key


def test_sudoku_box_and_symbols_survive_json(tmp_path: Path) -> None:
    """A 6x6 with boxes 3 tall and 2 wide: the JSON carries the box, which the givens cannot."""
    path = tmp_path / "s.txt"
    path.write_text("genre: sudoku\nbox: 3x2\n1.....\n......\n......\n......\n......\n.....2\n")
    first = satgrid("solve", str(path), "--format", "json").stdout
    record = json.loads(first)
    assert record["box"] == "3x2"
    again = tmp_path / "s.jsonl"
    again.write_text(first)
    assert json.loads(satgrid("solve", str(again), "--format", "json").stdout)["solution"] == record["solution"]


@pytest.mark.parametrize("text, fragments", [
    ('{"genre": "sudoku", "puzzle": [[1, 2], [3]]}\n', (":1:", "row 2")),
    ('{"genre": "nurikabe", "puzzle": [[1, 0], [0, 0]], "solution": ["#"]}\n', (":1:", "'solution'")),
    ('{"genre": "nurikabe", "puzzle": [[1, 0], [0, 0]]}\nnot json\n', (":2:",)),
    ('{"genre": "chess", "puzzle": []}\n', (":1:", "unknown genre 'chess'")),
    ('{"genre": "nurikabe", "puzzle": [[1, 0], [0, 0]], "rows": 3}\n', (":1:", "rows: 3")),
])
def test_bad_result_lines_are_one_line_errors(tmp_path: Path, text: str, fragments: tuple[str, ...]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    proc = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(path)], capture_output=True,
                          text=True, timeout=60)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for fragment in (str(path), *fragments):
        assert fragment in lines[0]


# -- item 14: one size convention -------------------------------------------------------------------
@pytest.mark.parametrize("genre", ["slitherlink", "nurikabe"])
def test_generate_size_is_rows_by_columns_everywhere(tmp_path: Path, genre: str) -> None:
    rows, cols = SIZES[genre]
    text = satgrid("generate", genre, "--size", f"{rows}x{cols}", "--seed", "5").stdout
    assert text.startswith(f"puzzle {genre}-{rows}x{cols}-5\n")
    assert f"\nrows: {rows}\ncols: {cols}\n" in text
    grid = text.split("givens:\n")[1].split("\nend")[0].splitlines()
    assert len(grid) == rows
    path = tmp_path / "g.txt"
    path.write_text(text)
    report = satgrid("solve", str(path)).stdout
    assert f"({genre} {rows}x{cols}," in report.splitlines()[0]


def test_size_errors_name_the_convention() -> None:
    proc = subprocess.run([sys.executable, "-m", "satgrid", "generate", "sudoku", "--size", "9by9"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "ROWSxCOLS (rows x columns" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "satgrid", "generate", "--help"], capture_output=True,
                          text=True, timeout=60)
    assert "ROWSxCOLS" in proc.stdout and "rows x columns" in " ".join(proc.stdout.split())


CLARK = "034005000075020100000000875340000009000260340060340000003580090000000003000000000"


def test_a_result_lines_solution_is_checked_as_the_given_solution(tmp_path: Path) -> None:
    """JSON result lines read back carry their ``solution`` as the given solution: the same run
    again says "matches"; the second solution of a puzzle with several, given as its solution,
    "differs" (and fails --require-unique); a solution that breaks a rule is "invalid"."""
    data = Path(__file__).resolve().parent.parent / "satgrid" / "data" / "nurikabe.txt"
    nurikabe = [json.loads(x) for x in satgrid("solve", str(data), "--format", "json").stdout.splitlines()]
    clark_file = tmp_path / "clark.txt"
    clark_file.write_text(f"genre: sudoku\n{CLARK}\n")
    [clark] = [json.loads(x) for x in satgrid("solve", str(clark_file), "--unique", "--format",
                                               "json").stdout.splitlines()]
    assert clark["status"] == "multiple"
    clark["solution"] = clark.pop("second_solution")
    broken = dict(nurikabe[1], solution=["#" * len(row) for row in nurikabe[1]["solution"]])
    results = tmp_path / "results.jsonl"
    results.write_text("\n".join(json.dumps(x) for x in (nurikabe[0], clark, broken)) + "\n")
    proc = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(results), "--unique",
                           "--format", "json"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    again = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [x["given_solution"] for x in again] == ["matches", "differs", "invalid"]
    assert again[1]["status"] == "multiple" and "not unique" in again[1]["given_note"]
    strict = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(results), "--require-unique",
                             "--format", "json"], capture_output=True, text=True, timeout=300)
    assert strict.returncode == 3 and "Traceback" not in strict.stderr


def test_tables_label_sizes_rows_by_columns(tmp_path: Path) -> None:
    rows, cols = SIZES["nurikabe"]
    path, _ = generated(tmp_path, "nurikabe", "text")
    table = satgrid("solve", str(path), "--summary").stdout.splitlines()
    assert "rows x cols" in table[0]
    assert all(f" {rows}x{cols} " in line for line in table[1:3])


def test_encode_estimates_the_eager_encoding_it_writes(tmp_path: Path) -> None:
    """encode's clause limit is checked against the export's own connectivity (eager by default)."""
    from satgrid.registry import GENRES

    _, lazy = GENRES["slitherlink"].estimate(30, 30, "lazy")
    _, eager = GENRES["slitherlink"].estimate(30, 30, "eager")
    assert lazy < eager
    limit = (lazy + eager) // 2
    data = Path(__file__).resolve().parent.parent / "bench" / "data" / "slither30.txt"
    common = ["encode", str(data), "-o", str(tmp_path), "--max-clauses", str(limit)]
    satgrid(*common, "--connectivity", "lazy")
    proc = subprocess.run([sys.executable, "-m", "satgrid", *common], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert "--max-clauses" in proc.stderr and "Traceback" not in proc.stderr


def test_result_symbols_that_cannot_be_printed_are_refused(tmp_path: Path) -> None:
    """A JSON result's ``symbols`` holding a control character (found by the fuzz test: it made
    the drawing unreadable XML) is a one-line error; a set the text grid cannot hold but ipuz can
    (here with '.') still reads."""
    grid = [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]
    for symbols, ok in (("ab\x0cd", False), ("ab.d", True), ("abcd", True)):
        path = tmp_path / "r.jsonl"
        path.write_text(json.dumps({"id": "x", "genre": "sudoku", "rows": 4, "cols": 4, "puzzle": grid,
                                    "symbols": symbols}) + "\n")
        proc = subprocess.run([sys.executable, "-m", "satgrid", "convert", str(path), "--to", "svg"],
                              capture_output=True, text=True, timeout=120)
        assert (proc.returncode == 0) == ok, proc.stderr
        if not ok:
            assert len(proc.stderr.splitlines()) == 1 and "cannot be printed" in proc.stderr
