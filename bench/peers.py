"""Peer solvers from PyPI, wrapped for comparison benchmarks against satgrid.

Every function takes a puzzle in satgrid's plain representation and returns the
solution in the same representation, or None when the peer found no solution:

* Sudoku: ``givens`` is a list of n rows of ``int | None``; ``box`` is
  ``(height, width)`` of a block; a solution is n rows of ints.
* Slitherlink: ``clues`` is a list of rows of ``int | None`` (0..3 clue or no
  clue).  A solution is ``(horizontal, vertical)``: ``horizontal`` has
  rows+1 lists of cols 0/1 values (edge (i, j) lies on dot row i between dot
  columns j and j+1); ``vertical`` has rows lists of cols+1 values (edge (i, j)
  lies in cell row i on dot column j).
* Nurikabe: ``clues`` is a list of rows of ``int | None``; a solution is a list
  of row strings, ``'#'`` black and ``'.'`` white.

The ``*_count`` functions return how many distinct solutions the peer found,
stopping at ``limit`` (default 2), for uniqueness comparisons; a ``solutions`` entry of
``PEERS``, where there is one, returns those solutions themselves.

Peers whose package is missing are reported by ``available(name)`` (never
raises); calling one of their functions raises ImportError.  ``PEERS``
describes every wrapper.  Pure-Python peers (py-sudoku) and the enumerating
OR-Tools wrappers have no time limit of their own: use ``call_with_timeout``
to run any wrapper in a child process with a wall-clock limit.

Package versions these wrappers were written against (installed with pip):
multi-puzzle-solver 1.1.10 (ortools 9.15), py-sudoku 2.0.0, puzzlekit 0.3.4,
grilops 0.10.3 (z3-solver 5.4.0.0), clingo 5.8.3.
"""
from __future__ import annotations

import importlib
import multiprocessing
import time
from typing import Any, Callable, Optional

Grid = list[list[Optional[int]]]
Edges = tuple[list[list[int]], list[list[int]]]


class PeerTimeout(Exception):
    """The peer gave up at its own time limit without deciding the puzzle."""


# --------------------------------------------------------------------------
# Sudoku
# --------------------------------------------------------------------------

def _sudoku_char(v: Optional[int]) -> str:
    # multi-puzzle-solver's board cells: ' ' blank, '1'..'9', then 'a' = 10, 'b' = 11, ...
    if v is None or v == 0:
        return " "
    return str(v) if v < 10 else chr(ord("a") + v - 10)


def _mps_sudoku_solutions(givens: Grid, box: tuple[int, int], limit: int) -> list[list[list[int]]]:
    import numpy as np
    from puzzle_solver.core.utils import get_pos
    from puzzle_solver.core.utils_ortools import SingleSolution, generic_solve_all
    from puzzle_solver.puzzles.sudoku.sudoku import Board

    n = len(givens)
    arr = np.array([[_sudoku_char(v) for v in row] for row in givens])
    board = Board(arr, block_size=(box[0], box[1]))  # (vertical, horizontal) = (height, width)

    def to_solution(b, cb) -> SingleSolution:
        return SingleSolution(assignment=[[int(cb.value(b.model_vars[get_pos(x=x, y=y)]))
                                           for x in range(n)] for y in range(n)])

    sols = generic_solve_all(board, to_solution, max_solutions=limit, verbose=False)
    return [s.assignment for s in sols]


def sudoku_multi_puzzle_solver(givens: Grid, box: tuple[int, int] = (3, 3)) -> Optional[list[list[int]]]:
    """multi-puzzle-solver's Sudoku model (OR-Tools CP-SAT, AllDifferent), first solution."""
    sols = _mps_sudoku_solutions(givens, box, 1)
    return sols[0] if sols else None


def sudoku_multi_puzzle_solver_count(givens: Grid, box: tuple[int, int] = (3, 3), limit: int = 2) -> int:
    """Number of distinct solutions multi-puzzle-solver enumerates, up to ``limit``."""
    return len(_mps_sudoku_solutions(givens, box, limit))


def sudoku_py_sudoku(givens: Grid, box: tuple[int, int] = (3, 3)) -> Optional[list[list[int]]]:
    """py-sudoku's pure-Python backtracking solver (fewest-candidates cell first)."""
    from sudoku import Sudoku
    from sudoku.sudoku import UnsolvableSudoku

    height, width = box
    board = [[v if v else None for v in row] for row in givens]
    try:
        solved = Sudoku(width, height, board=board).solve(assert_solvable=True)
    except UnsolvableSudoku:
        return None
    if any(v is None for row in solved.board for v in row):
        return None
    return [list(row) for row in solved.board]


def sudoku_py_sudoku_has_multiple(givens: Grid, box: tuple[int, int] = (3, 3)) -> bool:
    """py-sudoku's own uniqueness test (solves ascending and descending, compares)."""
    from sudoku import Sudoku

    height, width = box
    board = [[v if v else None for v in row] for row in givens]
    return Sudoku(width, height, board=board).has_multiple_solutions()


# --------------------------------------------------------------------------
# Slitherlink
# --------------------------------------------------------------------------

def _mps_slitherlink_solutions(clues: Grid, limit: int) -> list[Edges]:
    import numpy as np
    from puzzle_solver.core.utils import Direction
    from puzzle_solver.core.utils_ortools import SingleSolution, generic_solve_all
    from puzzle_solver.puzzles.slitherlink.slitherlink import Board

    rows, cols = len(clues), len(clues[0])
    arr = np.array([[" " if v is None else str(v) for v in row] for row in clues])
    board = Board(arr)

    def to_solution(b, cb) -> SingleSolution:
        hor = [[0] * cols for _ in range(rows + 1)]
        ver = [[0] * (cols + 1) for _ in range(rows)]
        # model_vars holds each edge once: (cell, RIGHT/DOWN) for every cell,
        # (top-row cell, UP) and (left-column cell, LEFT) for the outer border.
        for (pos, d), var in b.model_vars.items():
            if not cb.value(var):
                continue
            y, x = pos.y, pos.x
            if d == Direction.UP:
                hor[y][x] = 1
            elif d == Direction.DOWN:
                hor[y + 1][x] = 1
            elif d == Direction.LEFT:
                ver[y][x] = 1
            elif d == Direction.RIGHT:
                ver[y][x + 1] = 1
        return SingleSolution(assignment=[hor, ver])

    sols = generic_solve_all(board, to_solution, max_solutions=limit, verbose=False)
    return [(s.assignment[0], s.assignment[1]) for s in sols]


def slitherlink_multi_puzzle_solver(clues: Grid) -> Optional[Edges]:
    """multi-puzzle-solver's Slitherlink model (CP-SAT; degree 0/2 + connectivity by heights)."""
    sols = _mps_slitherlink_solutions(clues, 1)
    return sols[0] if sols else None


def slitherlink_multi_puzzle_solver_count(clues: Grid, limit: int = 2) -> int:
    """Number of distinct loops multi-puzzle-solver enumerates, up to ``limit``."""
    return len(_mps_slitherlink_solutions(clues, limit))


def _puzzlekit_solved(problem: Any, kind: str, time_limit: float, workers: Optional[int]) -> Any:
    """puzzlekit's solve of ``problem`` (its dict or grid text) as ``kind``: its result when
    solved, None when infeasible.  Raises PeerTimeout at ``time_limit``."""
    import puzzlekit

    options: dict[str, Any] = {"time_limit_sec": float(time_limit)}
    if workers is not None:
        options["num_workers"] = int(workers)
    result = puzzlekit.solve(problem, kind, solver_options=options)
    status = result.solution_data.get("status")
    if status == "Timeout":
        raise PeerTimeout(f"puzzlekit gave up after {time_limit}s")
    if not result.is_solved:
        if status == "Infeasible":
            return None
        raise RuntimeError(f"puzzlekit status {status!r}")
    return result


def slitherlink_puzzlekit(clues: Grid, time_limit: float = 300.0,
                          workers: Optional[int] = None) -> Optional[Edges]:
    """puzzlekit's Slitherlink solver (CP-SAT AddCircuit).  Raises PeerTimeout at ``time_limit``.

    ``workers`` sets CP-SAT's num_workers (None: OR-Tools' default, all cores).
    """
    rows, cols = len(clues), len(clues[0])
    data = {"num_rows": rows, "num_cols": cols,
            "grid": [["-" if v is None else str(v) for v in row] for row in clues]}
    result = _puzzlekit_solved(data, "slitherlink", time_limit, workers)
    if result is None:
        return None
    # Each cell holds the sum of its loop sides: top 8, left 4, bottom 2, right 1 ('-' = none).
    hor = [[0] * cols for _ in range(rows + 1)]
    ver = [[0] * (cols + 1) for _ in range(rows)]
    for i, row in enumerate(result.sol_grid.matrix):
        for j, cell in enumerate(row):
            s = 0 if cell == "-" else int(cell)
            if s & 8:
                hor[i][j] = 1
            if s & 4:
                ver[i][j] = 1
            if s & 2:
                hor[i + 1][j] = 1
            if s & 1:
                ver[i][j + 1] = 1
    return hor, ver


# --------------------------------------------------------------------------
# Nurikabe (grilops, modelled after grilops' examples/nurikabe.py)
# --------------------------------------------------------------------------

def _grilops_nurikabe(clues: Grid, timeout_ms: Optional[int] = None):
    from z3 import And, Implies, Int, Not
    import grilops
    import grilops.regions
    from grilops.geometry import Point

    height, width = len(clues), len(clues[0])
    givens = {(y, x): v for y, row in enumerate(clues) for x, v in enumerate(row) if v is not None}
    sea_size = height * width - sum(givens.values())
    if sea_size < 0 or any(v < 1 for v in givens.values()):
        return None
    sizes = list(givens.values()) + ([sea_size] if sea_size > 0 else [])
    if not sizes:
        return None

    sym = grilops.SymbolSet([("B", "#"), ("W", ".")])
    lattice = grilops.get_rectangle_lattice(height, width)
    sg = grilops.SymbolGrid(lattice, sym)
    if timeout_ms is not None:
        sg.solver.set("timeout", int(timeout_ms))
    rc = grilops.regions.RegionConstrainer(
        lattice, solver=sg.solver, min_region_size=min(sizes), max_region_size=max(sizes))
    s = sg.solver

    # One sea holding every black cell, of the size the clues leave over.
    sea_id = Int("sea-id")
    s.add(sea_id >= 0, sea_id < height * width)
    for p in givens:
        s.add(sea_id != lattice.point_to_index(Point(*p)))
    for y in range(height):
        for x in range(width):
            p = Point(y, x)
            s.add(Implies(sg.cell_is(p, sym.B),
                          And(rc.region_id_grid[p] == sea_id, rc.region_size_grid[p] == sea_size)))
            s.add(Implies(sg.cell_is(p, sym.W), rc.region_id_grid[p] != sea_id))
    # No 2x2 pool of black cells.
    for y in range(height - 1):
        for x in range(width - 1):
            s.add(Not(And(*[sg.grid[Point(y + dy, x + dx)] == sym.B for dy in (0, 1) for dx in (0, 1)])))

    # Islands: each clue cell is white and the root of its island of that size;
    # every other white cell belongs to some clue's island and is never a root.
    island_ids = [lattice.point_to_index(Point(*gp)) for gp in givens]
    for y in range(height):
        for x in range(width):
            p = Point(y, x)
            if (y, x) in givens:
                s.add(sg.cell_is(p, sym.W))
                s.add(rc.parent_grid[p] == grilops.regions.R)
                s.add(rc.region_size_grid[p] == givens[(y, x)])
            else:
                for iid in island_ids:
                    s.add(Implies(rc.region_id_grid[p] == iid, sg.cell_is(p, sym.W)))
                s.add(Implies(sg.cell_is(p, sym.W), rc.parent_grid[p] != grilops.regions.R))

    # Orthogonal neighbours of the same colour are in the same region.
    for y in range(height):
        for x in range(width):
            p = Point(y, x)
            cells = [n.symbol for n in sg.edge_sharing_neighbors(p)]
            ids = [n.symbol for n in lattice.edge_sharing_neighbors(rc.region_id_grid, p)]
            for cell, rid in zip(cells, ids):
                s.add(Implies(sg.grid[p] == cell, rc.region_id_grid[p] == rid))
    return sg, sym, height, width


def _grilops_check(sg) -> bool:
    from z3 import sat, unknown

    res = sg.solver.check()
    if res == unknown:
        raise PeerTimeout(f"z3 returned unknown: {sg.solver.reason_unknown()}")
    return res == sat


def _grilops_rows(sg, sym, height, width) -> list[str]:
    from grilops.geometry import Point

    solved = sg.solved_grid()
    return ["".join("#" if solved[Point(y, x)] == sym.B else "." for x in range(width))
            for y in range(height)]


def nurikabe_grilops(clues: Grid, timeout: Optional[float] = None) -> Optional[list[str]]:
    """A Nurikabe model on grilops' RegionConstrainer (z3).  Raises PeerTimeout at ``timeout`` s."""
    built = _grilops_nurikabe(clues, None if timeout is None else int(timeout * 1000))
    if built is None:
        return None
    sg, sym, h, w = built
    if not _grilops_check(sg):
        return None
    return _grilops_rows(sg, sym, h, w)


def nurikabe_grilops_count(clues: Grid, limit: int = 2, timeout: Optional[float] = None) -> int:
    """Distinct solutions found by the grilops model, up to ``limit`` (blocks each found colouring)."""
    from z3 import Or

    built = _grilops_nurikabe(clues, None if timeout is None else int(timeout * 1000))
    if built is None:
        return 0
    sg, sym, h, w = built
    count = 0
    while count < limit and _grilops_check(sg):
        count += 1
        model = sg.solver.model()
        sg.solver.add(Or(*[cell != model.eval(cell).as_long() for cell in sg.grid.values()]))
    return count


# --------------------------------------------------------------------------
# Nurikabe (clingo: answer set programming, reachability by unfounded sets)
# --------------------------------------------------------------------------

#: A plain ASP model of the rules: each white cell picks one clue whose Manhattan distance allows
#: it; an island is what its seed reaches through its own cells (a recursive definition, so clasp's
#: unfounded-set check is the connectivity propagator), of the clue's size; cells of different
#: islands never touch; the wall is what one chosen black cell (the first in reading order)
#: reaches through black cells; no 2x2 black block.
_NURIKABE_ASP = """
adj(R,C,R+1,C) :- cell(R,C), cell(R+1,C).
adj(R,C,R,C+1) :- cell(R,C), cell(R,C+1).
adj(A,B,X,Y) :- adj(X,Y,A,B).
isclue(R,C) :- clue(_,R,C,_).
{ white(R,C) } :- cell(R,C), not isclue(R,C).
white(R,C) :- isclue(R,C).
black(R,C) :- cell(R,C), not white(R,C).
:- black(R,C), black(R+1,C), black(R,C+1), black(R+1,C+1).
in(I,R,C) :- clue(I,R,C,_).
1 { in(I,R,C) : cand(I,R,C) } 1 :- white(R,C), not isclue(R,C).
:- white(R,C), not isclue(R,C), #count{ I : cand(I,R,C) } = 0.
reach(I,R,C) :- clue(I,R,C,_).
reach(I,X,Y) :- reach(I,A,B), adj(A,B,X,Y), in(I,X,Y).
:- in(I,R,C), not reach(I,R,C).
:- clue(I,_,_,N), #count{ R,C : in(I,R,C) } != N.
:- in(I,R,C), white(X,Y), adj(R,C,X,Y), not in(I,X,Y).
1 { root(R,C) : cell(R,C), not isclue(R,C) } 1.
:- root(R,C), not black(R,C).
nxt(R,C,R,C+1) :- cell(R,C), cell(R,C+1).
nxt(R,C,R+1,0) :- cell(R,C), not cell(R,C+1), cell(R+1,0).
bb(X,Y) :- nxt(R,C,X,Y), black(R,C).
bb(X,Y) :- nxt(R,C,X,Y), bb(R,C).
:- root(R,C), bb(R,C).
rb(R,C) :- root(R,C).
rb(X,Y) :- rb(A,B), adj(A,B,X,Y), black(X,Y).
:- black(R,C), not rb(R,C).
#show white/2.
"""


def nurikabe_clingo_solutions(clues: Grid, limit: int, timeout: Optional[float]) -> list[list[str]]:
    """Up to ``limit`` distinct solutions of the ASP model above (rows of '#' and '.'), in the
    order clingo finds them.  Raises PeerTimeout at ``timeout`` s (grounding included)."""
    import clingo

    rows, cols = len(clues), len(clues[0])
    facts = [f"cell({r},{c})." for r in range(rows) for c in range(cols)]
    givens = [(r, c, v) for r, row in enumerate(clues) for c, v in enumerate(row) if v is not None]
    for i, (r, c, n) in enumerate(givens):
        facts.append(f"clue({i},{r},{c},{n}).")
        facts.extend(f"cand({i},{y},{x})." for y in range(max(0, r - n + 1), min(rows, r + n))
                     for x in range(max(0, c - n + 1), min(cols, c + n)) if abs(y - r) + abs(x - c) < n)
    deadline = None if timeout is None else time.perf_counter() + timeout
    ctl = clingo.Control([f"--models={limit}"])
    ctl.add("base", [], "\n".join(facts) + _NURIKABE_ASP)
    ctl.ground([("base", [])])
    found: list[list[str]] = []
    with ctl.solve(yield_=True, async_=True) as handle:
        while len(found) < limit:
            handle.resume()
            if not handle.wait(None if deadline is None else max(0.0, deadline - time.perf_counter())):
                handle.cancel()
                raise PeerTimeout(f"clingo gave up after {timeout}s")
            model = handle.model()
            if model is None:
                break
            white = {(s.arguments[0].number, s.arguments[1].number) for s in model.symbols(shown=True)}
            found.append(["".join("." if (r, c) in white else "#" for c in range(cols)) for r in range(rows)])
    return found


def nurikabe_clingo(clues: Grid, timeout: Optional[float] = None) -> Optional[list[str]]:
    """The ASP model above on clingo, first solution.  Raises PeerTimeout at ``timeout`` s."""
    found = nurikabe_clingo_solutions(clues, 1, timeout)
    return found[0] if found else None


def nurikabe_clingo_count(clues: Grid, limit: int = 2, timeout: Optional[float] = None) -> int:
    """Distinct solutions of the ASP model, up to ``limit`` (the wall's root is the first black
    cell, so each colouring is one answer set)."""
    return len(nurikabe_clingo_solutions(clues, limit, timeout))


def nurikabe_puzzlekit(clues: Grid, time_limit: float = 300.0,
                       workers: Optional[int] = None) -> Optional[list[str]]:
    """puzzlekit's Nurikabe solver (OR-Tools CP-SAT).  Raises PeerTimeout at ``time_limit``."""
    rows, cols = len(clues), len(clues[0])
    text = f"{rows} {cols}\n" + "\n".join(" ".join("-" if v is None else str(v) for v in row)
                                          for row in clues)
    result = _puzzlekit_solved(text, "nurikabe", time_limit, workers)
    if result is None:
        return None
    return ["".join("#" if cell == "x" else "." for cell in row) for row in result.sol_grid.matrix]


# --------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------

PEERS: dict[str, dict[str, Any]] = {
    "sudoku_multi_puzzle_solver": {
        "genre": "sudoku", "package": "multi-puzzle-solver", "modules": ["puzzle_solver", "ortools"],
        "engine": "OR-Tools CP-SAT", "function": sudoku_multi_puzzle_solver,
        "count": sudoku_multi_puzzle_solver_count,
        "notes": "enumerate_all_solutions mode (presolve off), stops after the first solution",
    },
    "sudoku_py_sudoku": {
        "genre": "sudoku", "package": "py-sudoku", "modules": ["sudoku"],
        "engine": "pure-Python backtracking", "function": sudoku_py_sudoku, "count": None,
        "notes": "no time limit; sudoku_py_sudoku_has_multiple is its own heuristic uniqueness test",
    },
    "slitherlink_multi_puzzle_solver": {
        "genre": "slitherlink", "package": "multi-puzzle-solver", "modules": ["puzzle_solver", "ortools"],
        "engine": "OR-Tools CP-SAT", "function": slitherlink_multi_puzzle_solver,
        "count": slitherlink_multi_puzzle_solver_count,
        "notes": "connectivity by height variables; enumerate_all_solutions mode",
    },
    "slitherlink_puzzlekit": {
        "genre": "slitherlink", "package": "puzzlekit", "modules": ["puzzlekit", "ortools"],
        "engine": "OR-Tools CP-SAT (AddCircuit)", "function": slitherlink_puzzlekit, "count": None,
        "notes": "solve only; own time limit (default here 300 s, package default 30 s)",
    },
    "nurikabe_grilops": {
        "genre": "nurikabe", "package": "grilops", "modules": ["grilops", "z3"],
        "engine": "z3 (grilops RegionConstrainer)", "function": nurikabe_grilops,
        "count": nurikabe_grilops_count,
        "notes": "model follows grilops' examples/nurikabe.py",
    },
    "nurikabe_clingo": {
        "genre": "nurikabe", "package": "clingo", "modules": ["clingo"],
        "engine": "clingo (ASP; clasp's unfounded-set check as the connectivity propagator)",
        "function": nurikabe_clingo, "count": nurikabe_clingo_count,
        "solutions": nurikabe_clingo_solutions,
        "notes": "a plain ASP model of the rules, written for this bench (_NURIKABE_ASP)",
    },
    "nurikabe_puzzlekit": {
        "genre": "nurikabe", "package": "puzzlekit", "modules": ["puzzlekit", "ortools"],
        "engine": "OR-Tools CP-SAT", "function": nurikabe_puzzlekit, "count": None,
        "notes": "solve only; own time limit (default here 300 s, package default 30 s)",
    },
}

_PACKAGE_MODULES = {info["package"]: info["modules"] for info in PEERS.values()}


def available(name: str) -> bool:
    """True if the peer ``name`` (a PEERS key or a pip package name) can be imported."""
    try:
        if name in PEERS:
            modules = PEERS[name]["modules"]
        elif name in _PACKAGE_MODULES:
            modules = _PACKAGE_MODULES[name]
        else:
            return False
        for mod in modules:
            importlib.import_module(mod)
        return True
    except Exception:  # ImportError, or a broken install raising anything else
        return False


def _child(conn, fn, args, kwargs):
    try:
        t0 = time.perf_counter()
        result = fn(*args, **kwargs)
        conn.send(("ok", result, time.perf_counter() - t0))
    except PeerTimeout as e:
        conn.send(("timeout", str(e), None))
    except BaseException as e:  # report, never hang the parent
        conn.send(("error", f"{type(e).__name__}: {e}", None))
    finally:
        conn.close()


def call_with_timeout(fn: Callable, *args, timeout: float = 60.0, **kwargs) -> tuple[str, Any, Optional[float]]:
    """Run ``fn(*args, **kwargs)`` in a forked child with a wall-clock limit.

    Returns ``(status, result, seconds)``: status is "ok" (result is the
    return value, seconds the time the call took inside the child), "timeout"
    (the child was killed, or the peer hit its own limit) or "error" (result
    is the message).
    """
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args, kwargs), daemon=True)
    proc.start()
    child.close()
    try:
        if parent.poll(timeout):
            return parent.recv()
        return ("timeout", None, None)
    except EOFError:
        return ("error", f"child exited with code {proc.exitcode}", None)
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
