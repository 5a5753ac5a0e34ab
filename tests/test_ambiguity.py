"""The ambiguity report (satgrid.ambiguity) against the engine's enumeration of every solution.

For each genre a bundled unique sample is made ambiguous (a clue removed; for the genres without
clues, two rooms merged or a cell moved to the next room) and the report's solution count,
backbone and undecided cells or edges are checked against all its solutions, enumerated on a
fresh session by blocking each one (``tests/helpers.engine_solutions``): a part is undecided iff
two solutions differ in it by the genre's own ``differences``; the backbone's values are the
primary literals true in every solution.
"""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from importlib import resources

import pytest
from click.testing import CliRunner

from satgrid import api, formats, rooms
from satgrid.ambiguity import Ambiguity, parts_of, report
from satgrid.cli import main
from satgrid.registry import GENRES
from tests.helpers import engine_solutions

#: genre -> (sample index, edit): ("remove", clue key), ("merge", a cell of each of two rooms),
#: ("move", cell, a cell of the room it joins). Each edit leaves between 3 and 24 solutions.
CASES = {
    "sudoku": (1, ("remove", (0, 4))),
    "slitherlink": (0, ("remove", (0, 1))),
    "nurikabe": (0, ("remove", (0, 1))),
    "hitori": (0, ("remove", (0, 1))),
    "masyu": (0, ("remove", (0, 0))),
    "kurodoko": (0, ("remove", (4, 1))),
    "akari": (0, ("remove", (1, 0))),
    "yajilin": (0, ("remove", (3, 2))),
    "norinori": (0, ("merge", (0, 0), (0, 2))),
    "starbattle": (0, ("move", (0, 1), (0, 0))),
    "fillomino": (0, ("remove", (3, 0))),
    "lits": (0, ("merge", (0, 3), (1, 1))),
    "heyawake": (0, ("remove", (0, 4))),
    "nurimisaki": (2, ("remove", (7, 5))),
}


def test_every_genre_has_a_case() -> None:
    assert set(CASES) == set(GENRES)


def sample(name: str) -> object:
    g = GENRES[name]
    return api.load([str(resources.files("satgrid") / "data" / g.examples)])[CASES[name][0]]


def ambiguous(name: str) -> object:
    """The sample made ambiguous by its case's edit."""
    puzzle = sample(name)
    edit = CASES[name][1]
    if edit[0] == "remove":
        clues = puzzle.clues()
        del clues[edit[1]]
        return puzzle.with_clues(clues)
    groups = [list(room) for room in puzzle.rooms]
    a, b = (puzzle.room_of(p) for p in edit[1:])
    if edit[0] == "merge":
        groups[a] += groups[b]
        del groups[b]
    else:
        groups[a].remove(edit[1])
        groups[b].append(edit[1])
    return replace(puzzle, rooms=rooms.canonical(groups))


def part_of_key(puzzle) -> dict:
    """Each primary key -> the parts it belongs to (through the report's own mapping)."""
    encoding = GENRES[puzzle.genre].encode(puzzle)
    key_of = {v: k for k, v in encoding.primary.items()}
    out: dict = {}
    for part, variables in parts_of(encoding).items():
        for v in variables:
            out.setdefault(key_of[v], set()).add(part)
    return out


def enumerated(puzzle) -> tuple[list, list[set]]:
    keys: list[set] = []
    found = engine_solutions(GENRES[puzzle.genre].module, puzzle, true_keys=keys)
    return list(found), keys


@pytest.mark.parametrize("name", sorted(CASES))
def test_unique_sample_decides_every_part(name: str) -> None:
    puzzle = sample(name)
    found = report(puzzle)
    assert found.status == "unique" and found.count == 1 and found.exact
    assert found.undecided == [] and found.differences == [] and found.second_solution is None
    assert len(found.decided) == len(parts_of(GENRES[name].encode(puzzle)))
    assert GENRES[name].check(puzzle, found.solution) == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_report_against_every_solution(name: str) -> None:
    g, puzzle = GENRES[name], ambiguous(name)
    solutions, keys = enumerated(puzzle)
    assert 3 <= len(solutions) <= 24
    differing = {k for s in solutions for k in g.differences(puzzle, solutions[0], s)}
    common = set.intersection(*keys)
    owners = part_of_key(puzzle)
    all_parts = {p for ps in owners.values() for p in ps}
    # the undecided parts by the primary variables: a key true in some solutions, not in all
    assert {p for k in set.union(*keys) - common for p in owners[k]} == differing

    exact = report(puzzle, cap=len(solutions) + 1)  # the count ends: backbone by intersection
    flips = report(puzzle, cap=2)  # two solutions, then the backbone by flipping candidates
    for found in (exact, flips):
        assert found.status == "multiple"
        assert set(found.undecided) == differing
        assert set(found.decided) == all_parts - differing
        assert found.complete
        for part, true in found.decided.items():
            assert set(true) == {k for k in common if part in owners[k]}, part
        assert found.solution in solutions and found.second_solution in solutions
        assert found.solution != found.second_solution
        assert found.differences == g.differences(puzzle, found.solution, found.second_solution)
        assert set(found.differences) <= differing
        # (a difference may be in a mark the genre derives, a LITS letter, with the same shading)
        assert all(a and b for a, b in (found.difference_words[k] for k in found.differences))
    assert exact.count == len(solutions) and exact.exact
    assert flips.count == 2 and not flips.exact
    assert exact.count_text() == f"exactly {len(solutions)}" and flips.count_text() == "at least 2"


def test_an_unsatisfiable_puzzle() -> None:
    puzzle = sample("sudoku")
    clues = puzzle.clues()
    (r, c), d = next(iter(clues.items()))
    other = next(k for k in clues if k[0] == r and k != (r, c) or k[1] == c and k != (r, c))
    clues[other] = d  # the same digit twice in a row or column
    found = report(puzzle.with_clues(clues))
    assert found.status == "unsatisfiable" and found.solution is None and found.count == 0


def test_a_limit_is_a_reported_outcome() -> None:
    found = report(ambiguous("slitherlink"), api.Options(time_limit=0))
    assert isinstance(found, Ambiguity) and found.status == "unknown" and not found.complete
    assert found.note


def test_cap_below_two_is_refused() -> None:
    with pytest.raises(ValueError):
        report(ambiguous("sudoku"), cap=1)


# -- the command line ---------------------------------------------------------------------------
@pytest.fixture()
def files(tmp_path):
    def write(name: str, puzzle=None) -> str:
        path = tmp_path / f"{name}.txt"
        path.write_text(formats.write_all([puzzle if puzzle is not None else ambiguous(name)], "text"))
        return str(path)
    return write


def test_cli_ambiguity_json(files) -> None:
    puzzle = ambiguous("slitherlink")
    solutions, _ = enumerated(puzzle)
    out = CliRunner().invoke(main, ["ambiguity", files("slitherlink"), "--format", "json",
                                    "--count-solutions", "50"])
    assert out.exit_code == 0, out.output
    found = json.loads(out.output)
    assert found["genre"] == "slitherlink" and found["status"] == "multiple"
    assert found["solution_count"] == len(solutions) and found["count_exact"] is True
    assert found["parts"] == "edges" and found["backbone_complete"] is True
    fresh = report(puzzle)
    assert [tuple(u["part"]) for u in found["undecided"]] == fresh.undecided
    assert found["backbone_size"] == len(found["backbone"]) == len(fresh.decided)
    assert found["undecided_count"] == len(found["undecided"])
    assert {d["name"] for d in found["differences"]} <= {u["name"] for u in found["undecided"]}
    assert found["second_solution"] is not None


def test_cli_ambiguity_text_and_cap(files) -> None:
    out = CliRunner().invoke(main, ["ambiguity", files("hitori"), "--count-solutions", "2"])
    assert out.exit_code == 0, out.output
    assert "solutions: at least 2 (counted up to 2)" in out.output
    assert "undecided: " in out.output and "backbone: " in out.output
    assert "differences (solution 1 / solution 2): " in out.output
    unique = CliRunner().invoke(main, ["ambiguity", files("hitori-unique", sample("hitori")),
                                       "--require-unique"])
    assert unique.exit_code == 0 and "solutions: exactly 1" in unique.output
    assert CliRunner().invoke(main, ["ambiguity", files("hitori"), "--require-unique"]).exit_code == 3


def test_cli_ambiguity_limit_and_bad_input(files, tmp_path) -> None:
    out = CliRunner().invoke(main, ["ambiguity", files("nurikabe"), "--time-limit", "0",
                                    "--format", "json"])
    assert out.exit_code == 0, out.output
    found = json.loads(out.output)
    assert found["status"] == "unknown" and found["note"]
    bad = tmp_path / "bad.txt"
    bad.write_text("genre: sudoku\n1 2 3\n")
    out = CliRunner().invoke(main, ["ambiguity", str(bad)])
    assert out.exit_code == 1 and out.output.startswith("satgrid: error: ") \
        and len(out.output.strip().splitlines()) == 1


def test_cli_solve_unique_reports_the_ambiguity(files) -> None:
    path = files("masyu")
    text = CliRunner().invoke(main, ["solve", "--unique", path])
    assert text.exit_code == 0, text.output
    assert "multiple" in text.output and "backbone: " in text.output and "undecided: " in text.output
    out = CliRunner().invoke(main, ["solve", "--unique", path, "--format", "json"])
    found = json.loads(out.output)
    for key in ("id", "status", "solution", "second_solution", "unique", "stats"):
        assert key in found  # the keys solve always had
    amb = found["ambiguity"]
    fresh = report(ambiguous("masyu"))
    assert amb["undecided_count"] == len(fresh.undecided)
    assert [tuple(u["part"]) for u in amb["undecided"]] == fresh.undecided
    unique = CliRunner().invoke(main, ["solve", "--unique", files("m", sample("masyu")), "--format", "json"])
    assert "ambiguity" not in json.loads(unique.output)


@pytest.mark.parametrize("name", ["sudoku", "slitherlink", "masyu"])
def test_render_ambiguity_svg(files, tmp_path, name: str) -> None:
    out_path = tmp_path / f"{name}.svg"
    out = CliRunner().invoke(main, ["render", "--ambiguity", files(name), "-o", str(out_path)])
    assert out.exit_code == 0, out.output
    root = ET.parse(out_path).getroot()  # well-formed XML
    marks = [e for e in root.iter() if "undecided" in (e.get("class") or "").split()]
    fresh = report(ambiguous(name))
    assert len(marks) == 2 * len(fresh.undecided)  # over both panels
    dashed = [e for e in marks if e.get("stroke-dasharray")]
    assert len(dashed) == (len(marks) if fresh.noun == "edges" else 0)
    assert any("diff" in (e.get("class") or "").split() for e in root.iter())
    legend = " ".join(e.text or "" for e in root.iter() if e.get("class") == "legend")
    assert ("dashed = undecided edges" if fresh.noun == "edges" else "hatched = undecided cells") in legend


def test_candidates_read_a_short_model_as_the_assignment_does() -> None:
    """The backbone candidates read broken literals off the model; a model shorter than the
    primary variables (unset variables are false) goes through the assignment: both agree."""
    from satgrid.ambiguity import _Candidates, _layout
    from satgrid.solver import Assignment

    puzzle = ambiguous("sudoku")
    session, _ = api.session_for(puzzle, api.Options())
    parts, _, owners, _ = _layout(session.encoding)
    top = max(owners)
    first = session.solve([session.selector(k, v) for k, v in puzzle.clues().items()]).assignment
    lits = [v if first(v) else -v for v in owners]
    short = Assignment(first.model[: top // 2])  # the rest unset: false
    padded = Assignment([*first.model[: top // 2], *(-v for v in range(top // 2 + 1, top + 1))])
    kept = []
    for assignment in (short, padded):
        candidates = _Candidates(lits, parts, owners)
        candidates.keep(assignment)
        kept.append((set(candidates), set(candidates.undecided)))
    assert kept[0] == kept[1]
    assert kept[0][1] and kept[0][0]  # some parts turned undecided, some literals stayed
