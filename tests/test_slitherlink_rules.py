"""The logic rules of R. van Dam's Slitherlink thesis: the rule-file parser, the symmetries, the
SAT soundness proofs (every shipped rule proved; a wrong rule refuted with a counterexample that
really is a local completion breaking it), the rule-based solver against known solutions, the
grade, and the ``satgrid rules`` commands."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from satgrid import api
from satgrid.cli import main
from satgrid.errors import ParseError
from satgrid.genres.slitherlink import logic_rules as L
from satgrid.genres.slitherlink import rule_solver as S
from satgrid.grid import Grid
from satgrid.registry import GENRES

from .helpers import SHARED

#: The thesis's example (Chapter 5), which leaves out Appendix A's middle line "e 0 1 1".
RULE_14 = """% rule number 14
s 0|0|3
s 0|2|3
e -2|1|0
e 0|-1|1
e 0|3|1
e 2|1|0
q
"""
#: A 1 has its right side crossed: false.
WRONG = "% #99\ns 0 0 1\ne 1 0 0\nq\n"


@pytest.fixture(scope="module")
def shipped() -> tuple[L.Rule, ...]:
    return tuple(L.load_rules())


# -- the file format ----------------------------------------------------------------------------
def test_parse_the_thesis_example():
    [rule] = L.parse_rules(RULE_14, "r.rules")
    assert rule.name == "#14" and rule.line == 2
    assert dict(rule.premises) == {(0, 0): 3, (0, 2): 3}
    assert dict(rule.conclusions) == {(-2, 1): 0, (0, -1): 1, (0, 3): 1, (2, 1): 0}


def test_rules_without_a_name_are_numbered():
    rules = L.parse_rules("s 0 0 0\ne 1 0 0\nq\n\ns 0 0 3\ns 0 -1 0\ne 0 1 1\nq\n")
    assert [r.name for r in rules] == ["#1", "#2"]


@pytest.mark.parametrize("text, line, col, words", [
    ("s 0 0 3\ne 1 0 1\n", 1, None, "no closing 'q'"),
    ("s 0 0 3\nx 1 0 1\nq\n", 2, 1, "starts with 's', 'e', 'q'"),
    ("s 0 0 3\ne 1 0\nq\n", 2, 1, "three numbers"),
    ("s 0 0 3\ne 1 a 1\nq\n", 2, 5, "not a whole number"),
    ("s 0 0 3\ne 1 -99 1\nq\n", 2, 5, "out of reach"),
    ("  s 0 0 3\n  e 1|0|7\n  q\n", 2, 9, "1 (a line) or 0"),
    ("s 0 0 5\ne 1 0 1\nq\n", 1, 7, "number 0-4"),
    ("s 0 0 3\ne 1 0 2\nq\n", 2, 7, "1 (a line) or 0"),
    ("s 1 1 0\ne 1 0 1\nq\n", 1, 3, "vertex"),
    ("s 0 0 3\ne 0 2 1\nq\n", 2, 3, "conclusion names an edge"),
    ("s 0 0 3\ne 1 0 1\ne 1 0 1\nq\n", 3, 3, "named twice"),
    ("s 0 0 3\ns 1 0 1\ne 1 0 1\nq\n", 3, 3, "both a start condition and a conclusion"),
    ("e 1 0 1\nq\n", 2, 1, "no start condition"),
    ("s 0 0 3\nq\n", 2, 1, "no conclusion"),
    ("s 0 0 3\ne 1 0 1\nq 7\n", 3, 3, "takes nothing after it"),
    ("% only a comment\n", None, None, "no rules"),
])
def test_bad_rule_files_name_line_and_column(text, line, col, words):
    with pytest.raises(ParseError) as err:
        L.parse_rules(text, "bad.rules")
    assert (err.value.line, err.value.column) == (line, col)
    assert words in err.value.message
    assert str(err.value).startswith("bad.rules:" + ("" if line is None else f"{line}"))


# -- symmetries ---------------------------------------------------------------------------------
def test_an_asymmetric_pattern_has_8_distinct_images():
    [rule] = L.parse_rules("s 0 0 3\ns 2 0 1\ns 1 2 1\ne -1 0 1\nq\n")
    images = rule.images()
    assert len(images) == 8
    assert len({image.shape() for image in images}) == 8
    assert all(L.prove_rule(image).status == L.prove_rule(rule).status for image in images)


def test_symmetric_patterns_have_fewer_images(shipped):
    by_name = {r.name: r for r in shipped}
    assert len(by_name["#14"].images()) == 2  # two adjacent 3s: a mirror in each axis
    assert len(by_name["#1"].images()) == 4   # a 0 and one of its sides


# -- soundness ----------------------------------------------------------------------------------
def test_every_shipped_rule_is_proved(shipped):
    proof = L.prove(list(shipped), "takegaki.rules")
    assert len(proof.verdicts) == 36
    assert [v.rule.name for v in proof.verdicts] == [f"#{n}" for n in range(1, 37)]
    assert not proof.refuted
    # the rules that close a small loop otherwise hold for a loop that leaves their window only
    big = {v.rule.name for v in proof.verdicts if v.status == "big-loop"}
    assert big == {"#14", "#23", "#24", "#25", "#26", "#33", "#34"}
    assert proof.summary() == "36 rules: 36 proved (7 of them only for a loop that leaves the window), 0 refuted"


def _is_completion(example: L.Counterexample, rule: L.Rule, loops_allowed: bool = False) -> bool:
    """Independently of the prover: the window's lines meet the rule's start conditions, every
    inner vertex has 0 or 2 lines and every rim vertex at most 2, and no loop closes inside."""
    g = Grid.of(example.rows, example.cols)
    lines = example.lines
    for dot in g.dots:
        degree = sum(k in lines for k in g.edges_at(dot))
        inner = 0 < dot[0] < example.rows and 0 < dot[1] < example.cols
        if degree > 2 or (inner and degree == 1):
            return False
    for pos, value in rule.premises:
        key = L.place(pos, example.anchor)
        have = sum(s in lines for s in g.sides(key)) if L.kind_of(pos) == "entry" else int(key in lines)
        if have != value:
            return False
    return loops_allowed or not L.closed_loops(lines)


def _brute_status(rule: L.Rule) -> str:
    """The verdict on a window without margin, by trying every set of lines."""
    r0, r1, c0, c1 = L.cell_box(rule)
    rows, cols, anchor = r1 - r0 + 1, c1 - c0 + 1, (-r0, -c0)
    keys = Grid.of(rows, cols).edge_keys
    completions = {"strict": [], "big": []}
    for bits in range(1 << len(keys)):
        lines = frozenset(k for b, k in enumerate(keys) if bits >> b & 1)
        example = L.Counterexample(rows, cols, anchor, {}, lines, ((0, 0), 0))
        loops = L.closed_loops(lines)
        if _is_completion(example, rule, loops_allowed=True):
            if not loops:
                completions["big"].append(lines)
            if not loops or loops == [lines]:
                completions["strict"].append(lines)

    def holds(mode: str) -> bool:
        return all((L.place(pos, anchor) in lines) == bool(value)
                   for lines in completions[mode] for pos, value in rule.conclusions)
    if not completions["big"]:
        return "vacuous"
    return "proved" if holds("strict") else "big-loop" if holds("big") else "refuted"


def test_the_prover_agrees_with_brute_force(shipped):
    """On windows without margin of at most 12 edges (2x2 entries): every shipped rule that fits,
    two wrong ones, and the line between two 3s (only for a big loop)."""
    wrong = L.parse_rules(WRONG + "s 1 0 1\ns 2 -1 1\ne 0 -1 1\nq\n" + "s 0 0 2\ns -1 0 1\ne 1 0 0\nq\n"
                          + "s 0 0 3\ns 2 0 3\ne 1 0 1\nq\n")
    seen = []
    for rule in [*shipped, *wrong]:
        r0, r1, c0, c1 = L.cell_box(rule)
        if (r1 - r0 + 1) * (c1 - c0 + 1) <= 4:
            status = _brute_status(rule)
            assert L.prove_rule(rule, margin=0).status == status, rule.name
            seen.append(status)
    assert len(seen) >= 10 and {"proved", "big-loop", "refuted"} <= set(seen)


def test_a_wrong_rule_is_refuted_with_a_real_counterexample():
    [rule] = L.parse_rules(WRONG)
    verdict = L.prove_rule(rule)
    assert verdict.status == "refuted"
    example = verdict.counterexample
    image = next(i for i in rule.images() if _is_completion(example, i)
                 and dict(i.conclusions).get(example.broken[0]) == example.broken[1])
    key = L.place(example.broken[0], example.anchor)
    assert (key in example.lines) != bool(example.broken[1])  # the conclusion is broken
    assert image.name == "#99"
    assert "#" in example.drawing()  # the crossed side drawn as the line it is


def test_a_small_loop_rule_is_not_proved_strictly():
    """Two adjacent 3s: the loop round both entries keeps the middle edge crossed, so Appendix
    A's rule 14 (with the middle line) holds only when the loop leaves the window (the thesis's
    own argument); Chapter 5's example, without it, holds outright."""
    [rule] = L.parse_rules(RULE_14)
    assert L.prove_rule(rule).status == "proved"
    [appendix] = L.parse_rules(RULE_14.replace("q\n", "e 0 1 1\nq\n"))
    assert L.prove_rule(appendix).status == "big-loop"
    [vacuous] = L.parse_rules("s 0 0 0\ns 1 0 1\ne -1 0 1\nq\n")
    assert L.prove_rule(vacuous).status == "vacuous"


# -- the rule-based solver ------------------------------------------------------------------------
def _known_solutions(path, most: int, max_cells: int):
    out = []
    for puzzle in api.load([str(path)]):
        given = puzzle.given_solution
        if given is not None and given.solution is not None and puzzle.rows * puzzle.cols <= max_cells:
            out.append((puzzle, given.solution))
    return out[:most]


def _agrees(state: S.Deduction, solution) -> list:
    h, v = solution
    return [key for key, value in state.known.items()
            if (h if key[0] == "h" else v)[key[1]][key[2]] != int(value)]


def test_rules_never_contradict_the_bundled_solutions(shipped):
    from importlib import resources
    path = resources.files("satgrid").joinpath("data/slitherlink.txt")
    pairs = _known_solutions(path, 10, 400)
    assert pairs
    for puzzle, solution in pairs:
        state = S.deduce(puzzle.clues(), puzzle.rows, puzzle.cols, shipped)
        assert not state.contradiction
        assert not _agrees(state, solution), puzzle.name


def test_rules_never_contradict_janko_solutions(shipped):
    path = SHARED / "external" / "slitherlink" / "janko_slitherlink_sample.txt"
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    pairs = _known_solutions(path, 12, 100)
    assert len(pairs) >= 5
    decided = 0
    for puzzle, solution in pairs:
        state = S.deduce(puzzle.clues(), puzzle.rows, puzzle.cols, shipped)
        assert not state.contradiction and not _agrees(state, solution), puzzle.name
        decided += bool(state.known)
    assert decided >= len(pairs) // 2


def test_big_loop_rules_wait_for_a_clue_outside_their_window(shipped):
    """Two adjacent 3s whose loop is the one round them: rule 14 (line between them) would
    contradict it, so it is not placed without a positive clue outside its window."""
    [puzzle] = api.load_text("genre: slitherlink\n33\n..\n")
    state = S.deduce(puzzle.clues(), 2, 2, shipped)
    assert not state.contradiction and "#14" not in state.used()
    graded = S.grade(puzzle, shipped)
    assert graded.unique and not _agrees(state, graded.solution)
    far = [p for p in S.placements({(0, 0): 3, (0, 1): 3, (9, 9): 1}, 10, 10, S.usable(shipped)[0])
           if p.name == "#14"]
    assert far  # with a clue far away it is placed


def test_grades_of_tatham_puzzles(shipped):
    easy, hard = api.load_text("7x7t0:122b221e322a12a230d13c1a3b3a32a3b322a\n\n"
                               "10x10t0:c1b3332323a321a1a2f22c11c1a3322b2a3b10b3c03b3a22a3a32d2a22a2a2b3c232a32a232a")
    graded = S.grade(easy, shipped)
    assert graded.status == "solved by rules" and not graded.search and graded.unique
    assert graded.by_rules + graded.by_loop_avoidance == graded.deduction.edges == 112
    assert {"#1", "#8", "#15"} <= set(graded.rules_used())
    assert not GENRES["slitherlink"].check(easy, graded.solution)
    graded = S.grade(hard, shipped)
    assert graded.search and graded.unique and graded.status == "unique"
    assert 0 < graded.by_rules < graded.deduction.edges


def test_loop_avoidance_is_optional(shipped):
    [easy] = api.load_text("7x7t0:122b221e322a12a230d13c1a3b3a32a3b322a")
    without = S.deduce(easy.clues(), 7, 7, shipped, loop_avoidance=False)
    assert S.LOOP_AVOIDANCE not in without.used()


# -- the commands -------------------------------------------------------------------------------
def test_cli_rules_prove():
    out = CliRunner().invoke(main, ["rules", "prove"])
    assert out.exit_code == 0, out.output
    assert out.output.count("proved") == 37
    assert out.output.splitlines()[-1].startswith("36 rules: 36 proved")
    out = CliRunner().invoke(main, ["rules", "prove", "--format", "json"])
    report = json.loads(out.output)
    assert (report["rules"], report["proved"], report["refuted"]) == (36, 36, 0)


def test_cli_rules_prove_refuted(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text(RULE_14 + WRONG)
    out = CliRunner().invoke(main, ["rules", "prove", str(bad)])
    assert out.exit_code == 0
    assert "rule #99 (line 10, 4 variants): REFUTED" in out.output and "counterexample" in out.output
    assert out.output.splitlines()[-1].startswith("2 rules: 1 proved")
    out = CliRunner().invoke(main, ["rules", "prove", str(bad), "--require-proved", "--svg", str(tmp_path / "svg")])
    assert out.exit_code == 3
    [drawing] = (tmp_path / "svg").iterdir()
    assert drawing.name == "rule-99.svg" and "what the rule concludes" in drawing.read_text()


def test_cli_rules_errors(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text("s 0 0 3\ne 1 1 1\nq\n")
    out = CliRunner().invoke(main, ["rules", "prove", str(bad)])
    assert out.exit_code == 1
    assert out.output.strip() == f"satgrid: error: {bad}:2:3: (1, 1) is a vertex (both odd); rules name entries (both even) and edges (one odd)"
    from importlib import resources
    other = [name for name, g in GENRES.items() if g.part("RULES") is None][0]
    path = resources.files("satgrid").joinpath(f"data/{GENRES[other].examples}")
    out = CliRunner().invoke(main, ["rules", "grade", str(path)])
    assert out.exit_code == 1 and len(out.output.strip().splitlines()) == 1
    assert "has no deduction rules" in out.output


def test_cli_rules_grade_and_solve(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("7x7t0:122b221e322a12a230d13c1a3b3a32a3b322a\n")
    out = CliRunner().invoke(main, ["rules", "grade", str(path), "--format", "json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert report["status"] == "solved by rules" and report["search"] is False
    out = CliRunner().invoke(main, ["rules", "solve", str(path)])
    assert out.exit_code == 0 and "no search" in out.output and "+-+" in out.output
