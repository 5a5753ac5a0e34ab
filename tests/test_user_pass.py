"""A demanding user's pass over every verb (encodings/diagnostics.md, "A user's pass over every
verb and genre"): each test here failed before its fix. Output paths that cannot be written,
input that does not read and limits reached are one-line outcomes, never a traceback or a hang."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from satgrid.cli import main

#: A 7x7 Slitherlink with one clue removed: exactly two solutions.
AMBIGUOUS_LOOP = """genre: slitherlink
122..22
1.....3
22.1..2
30....1
3...1.3
..3.32.
3..322.
"""


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def one_line_error(result, *words: str) -> None:
    """Exit status 1, no traceback, and one stderr line ``satgrid: error: ...`` holding ``words``."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("satgrid: error: "), result.stderr
    assert all(w in lines[0] for w in words), lines[0]


def test_explain_svg_into_a_file_is_one_line(tmp_path: Path) -> None:
    puzzle = tmp_path / "loop.txt"
    puzzle.write_text(AMBIGUOUS_LOOP)
    taken = tmp_path / "taken.svg"
    taken.write_text("mine")
    one_line_error(run("explain", str(puzzle), "--svg", str(taken)), str(taken), "not a directory")
    assert taken.read_text() == "mine"
    folder = tmp_path / "steps"
    (folder / "step-002.svg").mkdir(parents=True)  # a step's name taken by a directory
    one_line_error(run("explain", str(puzzle), "--svg", str(folder)), "step-002.svg", "cannot write")


def test_rules_prove_svg_into_a_file_is_one_line(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("mine")
    one_line_error(run("rules", "prove", "--svg", str(taken)), str(taken), "not a directory")


def test_watch_once_exits_1_on_input_that_does_not_read(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("genre: nurikabe\n1 . .\n. . . .\n")
    for fmt in ("text", "json"):
        result = run("watch", str(bad), "--once", "--format", fmt)
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert "bad.txt:3" in result.output and len(result.output.splitlines()) == 1
    good = tmp_path / "good.txt"
    good.write_text(AMBIGUOUS_LOOP)
    result = run("watch", str(good), "--once")
    assert result.exit_code == 0 and ": multiple: " in result.output, result.output


def test_watch_standard_input_checks_once() -> None:
    """Standard input cannot change: ``watch -`` checks it once and ends (it used to poll forever)."""
    proc = subprocess.run([sys.executable, "-m", "satgrid", "watch", "-", "--format", "json"],
                          input=AMBIGUOUS_LOOP, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stdout.splitlines()
    assert json.loads(line)["status"] == "multiple"


def test_explain_and_hint_word_arrows_and_pearls_as_repair_does() -> None:
    """A clue whose value is not a plain number is worded by the genre (``CLUE_WORDS``), not
    printed as a Python tuple (``arrow ('s', 0)``) or a letter (``pearl w``)."""
    from satgrid import api, explain
    from satgrid.grading import hint

    arrows = api.load_text(".  .  .  .\n.  .  .  .\n.  .  .  .\n.  .  1n .\n", genre="yajilin")[0]
    text = explain.explain(arrows).text()
    assert "1n (1 shaded up) at r4c3" in text and "('n', 1)" not in text, text
    pearls = api.load_text("b.....\n...w..\n.....b\n.ww.b.\nw.w.w.\n......\n", genre="masyu")[0]
    answer = explain.explain(pearls)
    assert answer.status == "unsatisfiable" and "a white pearl at r4c2" in answer.text(), answer.text()
    first = hint(api.load_text("b.....\n...w..\n.....b\n.ww...\nw.w.w.\n......\n", genre="masyu")[0])
    assert " pearl at r" in first.message and "pearl w " not in first.message, first.message


def test_hint_words_decided_facts_as_a_sentence() -> None:
    from satgrid import api
    from satgrid.grading import hint, state_format

    from satgrid.registry import GENRES

    puzzle = api.load_text(AMBIGUOUS_LOOP.replace("122..22", "122.322"))[0]  # unique again
    result = api.solve(puzzle)
    drawn = GENRES[puzzle.genre].render(puzzle, result.solution)  # crossed edges left undecided
    found = hint(puzzle, state_format(puzzle).parse(puzzle, drawn, "<state>"))
    assert "the decided the" not in found.message and "the decided fact" in found.message, found.message


def test_ambiguity_limit_after_a_solution_says_solved(monkeypatch) -> None:
    """Issue 19: a limit hit after a solution was found, while looking for a second one, is status
    "solved" (as ``solve --unique`` says it), not "unknown"; the first solution stays, checked."""
    from satgrid import ambiguity, api
    from satgrid.queries import PuzzleQueries
    from satgrid.session import Outcome

    solve = PuzzleQueries.solve

    def second_search_stopped(self, without=(), extra=(), **kw):
        return Outcome("unknown") if extra else solve(self, without, extra, **kw)

    monkeypatch.setattr(PuzzleQueries, "solve", second_search_stopped)
    puzzle = api.load_text(AMBIGUOUS_LOOP)[0]
    found = ambiguity.report(puzzle)
    assert found.status == "solved" and found.count == 1 and not found.exact
    assert found.solution is not None and not found.complete and "at least 1" in found.note
    assert found.to_json()["status"] == "solved" and found.summary().startswith("solved (uniqueness unknown)")
    assert not any(line.startswith("backbone:") for line in found.lines())


def test_a_one_clue_repair_is_smallest_over_all_solutions() -> None:
    """A puzzle with several solutions needs at least one added clue: a repair of one clue is
    proved smallest over all solutions, even when not every solution was enumerated."""
    from satgrid import api
    from satgrid.repair import repair, report

    # exactly two solutions, of which only the first is enumerated: one clue settles it
    puzzle = api.load_text(". . . .\n. . . 2\n. 1 . 3\n. 3 2 .\n", genre="sudoku")[0]
    found = repair(puzzle, max_solutions=1)
    assert not found.complete
    assert found.status == "multiple" and found.found and len(found.added) == 1
    assert found.proved and found.over_all is True and found.unique
    assert found.to_json()["smallest_over_all_solutions"] is True
    line = report(found).splitlines()[0]
    assert "smallest over all solutions" in line and "not proved" not in line, line


def test_generate_a_loop_genre_on_a_grid_too_thin_for_a_loop_is_one_line() -> None:
    """The pearl sampler spread its k x k must-visit cells over blocks of a grid with fewer than
    k rows (``randrange`` of an empty range: a traceback); now such a grid is a one-line error."""
    for size in ("1x5", "1x1"):
        one_line_error(run("generate", "masyu", "--size", size, "--seed", "1"), size, "too small")


def test_random_rectangles_tile_big_grids() -> None:
    """Whole draws of a big grid's rectangular rooms all fail (a boxed-in corner somewhere): the
    room genre's generator raised ValueError (a traceback) on a 100x100 grid. Tiles now draw it."""
    import random

    from satgrid import rooms

    for rows, cols in ((100, 100), (20, 100)):
        found = rooms.random_rectangles(rows, cols, random.Random(1), 3, 2)
        assert rooms.problems(rows, cols, found) == [] and found == rooms.canonical(found)
        for room in found:
            rs, cs = {r for r, _ in room}, {c for _, c in room}
            assert len(room) == len(rs) * len(cs) >= 2 and len(rs) <= 3 and len(cs) <= 3


def test_explain_checks_the_solution_its_steps_end_in(monkeypatch) -> None:
    """explain says "solved" for the solution its steps decide: that solution passes the genre's
    independent checker first, as every reported solution does (a checker complaint is a one-line
    internal error, never a "solved")."""
    from satgrid.registry import GENRES

    path_ok = run("explain", "-", input=AMBIGUOUS_LOOP.replace("122..22", "122.322"))
    assert path_ok.exit_code == 0 and "solved in " in path_ok.output, path_ok.output
    g = GENRES["slitherlink"]
    monkeypatch.setitem(GENRES, "slitherlink", type(g)(**{**g.__dict__, "check": lambda p, s: ["a planted fault"]}))
    broken = run("explain", "-", input=AMBIGUOUS_LOOP.replace("122..22", "122.322"))
    one_line_error(broken, "a planted fault", "encoding bug")


def test_a_file_of_comments_only_is_not_called_empty(tmp_path: Path) -> None:
    """A file cut short after its comment header used to be reported as an "empty file"."""
    cut = tmp_path / "cut.txt"
    cut.write_text("# Examples from a collection\n\n# more words\n")
    one_line_error(run("solve", str(cut)), "cut.txt", "no puzzle in it", "comment")
    assert "empty file" not in run("solve", str(cut)).stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("\n  \n")
    one_line_error(run("solve", str(empty)), "empty file")
