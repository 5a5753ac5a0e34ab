"""The Slitherlink and Nurikabe generators: valid loops and solutions, unique and clue-minimal
puzzles, reproducible seeds, normal puzzles that the propagation ladder solves."""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from satgrid import api, grading
from satgrid.genres.nurikabe.checker import check_nurikabe
from satgrid.genres.slitherlink.checker import check_slitherlink
from satgrid.cli import main
from satgrid.errors import SatgridError
from satgrid.generators import GENERATORS, generate_one
from satgrid.genres.nurikabe import generator as islands
from satgrid.genres.slitherlink import generator as loops


def _drawing(rows: int, cols: int, edges) -> tuple:
    on = set(edges)
    horizontal = tuple(tuple(int(("h", i, j) in on) for j in range(cols)) for i in range(rows + 1))
    vertical = tuple(tuple(int(("v", i, j) in on) for j in range(cols + 1)) for i in range(rows))
    return horizontal, vertical


def test_both_generators_are_registered():
    assert GENERATORS["slitherlink"] is loops.generate and GENERATORS["nurikabe"] is islands.generate


# -- Slitherlink ---------------------------------------------------------------------------------
@pytest.mark.parametrize("ratios", [(33, 33, 34), (33, 67, 0), (33, 7, 60), (0, 0, 1), (1, 0, 0)])
def test_grown_regions_bound_one_simple_loop(ratios):
    rng = random.Random(7)
    for size in [(1, 1), (2, 3), (5, 5), (8, 6)]:
        for _ in range(15):
            region = loops.grow(*size, rng, ratios)
            clues = region.clues()
            givens = tuple(tuple(clues[r, c] for c in range(size[1])) for r in range(size[0]))
            assert check_slitherlink(givens, *_drawing(*size, region.loop_edges())) == []
            # the ring patterns kept up to date change by change are the ones read afresh
            assert all(region.rings[region.index(r, c)] == region.ring(region.index(r, c))
                       for r in range(size[0]) for c in range(size[1]))


@pytest.mark.parametrize("ratios", [(33, 33, 34), (33, 67, 0), (33, 7, 60), (0, 0, 1), (1, 2, 3),
                                    (5000, 1, 4999), (0.2, 0.3, 0.5)])
def test_growth_rules_are_drawn_with_the_ratios(ratios):
    """Integer weights go through the bit table, others through random.choices; either way each
    rule comes up in proportion to its weight."""
    draws = loops._rule_draws(random.Random(4), ratios, 30000)
    assert len(draws) == 30000 and set(draws) <= {1, 2, 3}
    for rule, weight in zip((1, 2, 3), ratios):
        assert abs(draws.count(rule) / len(draws) - weight / sum(ratios)) < 0.012


def side_counts(region) -> dict:
    """Each cell's loop sides, from ``inside`` alone (the flip test moves cells by toggling it)."""
    inside, w = region.inside, region.width
    return {(r, c): sum(inside[i] != inside[i + off] for off in (-w, w, -1, 1))
            for r in range(region.rows) for c in range(region.cols) for i in (region.index(r, c),)}


def test_flips_give_other_simple_loops_changing_exactly_the_listed_counts():
    rng = random.Random(11)
    seen = {1: 0, 2: 0}
    for size in [(1, 1), (2, 2), (4, 5), (7, 7)]:
        for _ in range(10):
            region = loops.grow(*size, rng)
            counts = region.clues()
            assert counts == side_counts(region)
            for cells, changed in loops.flips(region).items():
                moved = [region.index(r, c) for r, c in cells]
                for i in moved:  # side_counts() and loop_edges() read ``inside`` alone
                    region.inside[i] = not region.inside[i]
                try:
                    after = side_counts(region)
                    givens = tuple(tuple(after[q, p] for p in range(size[1])) for q in range(size[0]))
                    assert check_slitherlink(givens, *_drawing(*size, region.loop_edges())) == []
                    assert {k for k in counts if counts[k] != after[k]} == set(changed)
                finally:
                    for i in moved:
                        region.inside[i] = not region.inside[i]
                seen[len(cells)] += 1
            assert side_counts(region) == counts
    assert seen[1] > 100 and seen[2] > 100


def test_flip_witnesses_only_vouch_for_needed_numbers():
    rng = random.Random(3)
    region = loops.grow(4, 4, rng)
    clues = region.clues()
    witnesses = loops.flip_witnesses(region, clues)
    order = sorted(clues)
    rng.shuffle(order)
    gone: set = set()
    vouched = 0
    for key in order:
        if any(numbers <= gone | {key} for numbers in witnesses.get(key, ())):
            vouched += 1
            rest = loops.SlitherlinkPuzzle(tuple(
                tuple(None if (r, c) in gone | {key} else clues[r, c] for c in range(4)) for r in range(4)))
            assert api.solve(rest, unique=True).status == "multiple"
        else:
            gone.add(key)
    assert vouched > 0


@pytest.mark.parametrize("seed", range(3))
def test_the_witnesses_part_reads_the_region_off_a_solution_and_keeps_audits_the_same(seed, monkeypatch):
    """WITNESSES (the flips of the region inside a solution's loop): the region read back is the
    generator's own, and an audit of a puzzle with redundant numbers (a minimal one plus some of
    the other counts) gives the same answers with and without it, in fewer SAT calls."""
    from satgrid.genres import slitherlink

    rng = random.Random(seed)
    made = loops.make(5, 5, rng)
    loop = _drawing(5, 5, made.loop)
    on = set(made.loop)
    counts = {(r, c): sum(edge in on for edge in loops.sides(5, 5, r, c)) for r in range(5) for c in range(5)}
    inside = [(r, c) for r in range(5) for c in range(5) if sum(loop[1][r][:c + 1]) % 2]
    region = loops.Region.of(5, 5, inside)
    assert region.clues() == counts and sorted(region.loop_edges()) == sorted(made.loop)
    clues = dict(made.puzzle.clues())
    for key in rng.sample(sorted(set(counts) - set(clues)), 4):
        clues[key] = counts[key]
    puzzle = made.puzzle.with_clues(clues)
    with_w = api.solve(puzzle, audit=True, grade=False)
    assert with_w.solution == loop
    assert any(len(part) == 1 for part in slitherlink.WITNESSES(puzzle, loop))
    monkeypatch.delattr(slitherlink, "WITNESSES")
    without = api.solve(puzzle, audit=True, grade=False)
    assert with_w.status == without.status == "unique" and without.redundant_clues
    assert with_w.redundant_clues == without.redundant_clues
    # questions asked: SAT calls less the CEGAR rounds (the first audit also learns the cuts)
    asked = [r.stats.sat_calls - r.stats.cegar_iterations for r in (with_w, without)]
    assert asked[0] < asked[1]


def test_growth_ratios_shape_the_loop():
    """As the thesis reports: 33/67/0 gives tight corridors spanning the grid (the region's
    bounding box is nearly the grid, and it fills little of it), 33/7/60 a broad loop in a small
    part of the grid."""
    def shape(ratios):
        rng = random.Random(3)
        regions = [loops.grow(10, 10, rng, ratios) for _ in range(20)]
        boxes = []
        for g in regions:
            rows = [i // g.width for i in g.cells]
            cols = [i % g.width for i in g.cells]
            boxes.append((max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1))
        return sum(boxes) / 20, sum(len(g.cells) / b for g, b in zip(regions, boxes)) / 20

    (corridor_box, corridor_fill), (broad_box, broad_fill) = shape((33, 67, 0)), shape((33, 7, 60))
    assert corridor_box > 90 and broad_box < 60
    assert corridor_fill < broad_fill


def test_bad_ratios_and_flavours_are_refused():
    with pytest.raises(SatgridError, match="three non-negative"):
        loops.grow(3, 3, random.Random(1), (1, -1, 1))
    with pytest.raises(SatgridError, match="flavour"):
        loops.make(3, 3, random.Random(1), flavour="evil")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hard_slitherlinks_are_unique_and_clue_minimal(seed):
    made = loops.make(6, 5, random.Random(seed), flavour="hard")
    result = api.solve(made.puzzle, audit=True)
    assert result.status == "unique" and result.minimal is True
    assert set(map(tuple, [("h", i, j) for i, row in enumerate(result.solution[0]) for j, x in enumerate(row) if x]
                           + [("v", i, j) for i, row in enumerate(result.solution[1]) for j, x in enumerate(row) if x])) \
        == set(made.loop)  # the puzzle's solution is the grown loop


@pytest.mark.parametrize("seed", [4, 5])
def test_normal_slitherlinks_are_solved_by_the_ladder(seed):
    puzzle = loops.generate(6, 6, random.Random(seed), flavour="normal")
    assert grading.grade(puzzle) in (0, 1)
    result = api.solve(puzzle, audit=True)
    assert result.status == "unique" and result.grade in (0, 1)


def test_slitherlink_seeds_reproduce_the_puzzle():
    a = loops.generate(7, 7, random.Random(11))
    api.solve(loops.generate(5, 5, random.Random(99)), audit=True)  # other work on the shared solver
    b = loops.generate(7, 7, random.Random(11))
    assert a == b
    assert loops.generate(7, 7, random.Random(12)) != a


# -- Nurikabe ------------------------------------------------------------------------------------
@pytest.mark.parametrize("size,sizes", [((5, 5), (1, 4)), ((7, 6), (2, 5)), ((8, 8), (1, 6)), ((1, 6), (1, 2))])
def test_random_nurikabe_solutions_obey_every_rule(size, sizes):
    rng = random.Random(5)
    rows, cols = size
    for _ in range(10):
        layout = islands.random_solution(rows, cols, rng, sizes)
        numbers = {cells[0]: len(cells) for cells in layout.islands}
        assert check_nurikabe(rows, cols, numbers, layout.solution()) == []
        assert all(sizes[0] <= len(cells) <= sizes[1] for cells in layout.islands)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nurikabes_number_every_island_and_are_unique(seed):
    """The default is the standard form: every island has its size, no ``?``."""
    made = islands.make(7, 7, random.Random(seed), flavour="hard")
    numbers = made.puzzle.numbers()
    assert "?" not in numbers.values()
    assert check_nurikabe(7, 7, numbers, made.solution) == []  # one number per island, its size
    result = api.solve(made.puzzle, audit=True)
    assert result.status == "unique" and result.solution == made.solution
    # the audit's "minimal" asks whether a size can become "?"; without --unknown-sizes that is
    # not promised, and the report says how it is
    assert result.minimal == (not result.redundant_clues)


def test_big_nurikabes_are_unique():
    """12x12 is asked square by square first (8x8 squares, generator.WINDOWS): still unique, every
    island numbered."""
    assert [len(square) for square in islands.squares(12, 12)] == [64] * 4
    assert {len(square) for square in islands.squares(20, 20)} == {144, 96, 64}  # 12x12 and the edges'
    made = islands.make(12, 12, random.Random(5))
    assert "?" not in made.puzzle.numbers().values()
    assert check_nurikabe(12, 12, made.puzzle.numbers(), made.solution) == []
    result = api.solve(made.puzzle, unique=True)
    assert result.status == "unique" and result.solution == made.solution


@pytest.mark.parametrize("seed", [1, 2])
def test_unknown_sizes_give_question_minimal_puzzles(seed):
    made = islands.make(6, 6, random.Random(seed), flavour="hard", unknown_sizes=True)
    result = api.solve(made.puzzle, audit=True)
    assert result.status == "unique" and result.minimal is True
    assert result.solution == made.solution
    # one number (a size or "?") per island
    numbers = made.puzzle.numbers()
    assert check_nurikabe(6, 6, numbers, made.solution) == []
    full = islands.make(6, 6, random.Random(seed), flavour="hard")
    assert full.solution == made.solution and full.puzzle.numbers().keys() == numbers.keys()
    assert all(v == "?" or full.puzzle.numbers()[p] == v for p, v in numbers.items())


def _shapes_brute_force(layout, i):
    """The cells of island ``i`` in another shape of it that the independent checker accepts
    (every other island and its number fixed): every connected set of its size, tried."""
    from itertools import combinations

    rows, cols, mine = layout.rows, layout.cols, set(layout.islands[i])
    others = {p: len(c) for j, (p, c) in enumerate(zip(layout.seeds, layout.islands)) if j != i}
    white = {p for p in layout.cells if layout.owner[p] is not None} - mine
    found = set()
    for shape in combinations(layout.cells, len(mine)):
        shape = set(shape)
        if shape == mine or not shape & mine or shape & white:
            continue
        solution = tuple("".join("." if (r, c) in white | shape else "#" for c in range(cols))
                         for r in range(rows))
        for p in shape & mine - found:
            if check_nurikabe(rows, cols, {**others, p: len(mine)}, solution) == []:
                found.add(p)
    return found


@pytest.mark.parametrize("size,sizes,seed", [((4, 4), (1, 4), 1), ((4, 5), (2, 4), 2), ((5, 4), (1, 3), 3)])
def test_pins_and_fragility_agree_with_brute_force(size, sizes, seed):
    """Pins: the cells outside every other shape; fragility: the shapes over black cells."""
    rng = random.Random(seed)
    for _ in range(4):
        layout = islands.random_solution(*size, rng, sizes)
        layout.seeds = [cells[0] for cells in layout.islands]
        for i in range(len(layout.islands)):
            assert islands.flip_cells(layout, i) == _shapes_brute_force(layout, i)
            assert islands.fragility(layout, i) == _fragility_brute_force(layout, i)


def _fragility_brute_force(layout, i):
    """For each cell of island ``i``: the connected sets of its size over its cells and black
    cells that hold it (every set of cells tried)."""
    from itertools import combinations

    mine = set(layout.islands[i])
    open_ = [p for p in layout.cells if layout.owner[p] is None or p in mine]
    count = dict.fromkeys(mine, 0)
    for shape in combinations(open_, len(mine)):
        shape = set(shape)
        start = next(iter(shape))
        seen, stack = {start}, [start]
        while stack:
            for q in layout.near(stack.pop()):
                if q in shape and q not in seen:
                    seen.add(q)
                    stack.append(q)
        if seen == shape:
            for p in shape & mine:
                count[p] += 1
    return count


def test_numbers_go_on_the_least_fragile_pins():
    """Each number sits on a pinned cell that fewest other shapes hold."""
    rng = random.Random(6)
    layout = islands.random_solution(8, 8, rng, (1, 6))
    assert layout.pin(rng, 1, 6, 10 ** 6)
    for i, cells in enumerate(layout.islands):
        weight = islands.fragility(layout, i)
        assert layout.seeds[i] in layout.pins[i]
        assert weight[layout.seeds[i]] == min(weight[p] for p in layout.pins[i])


def test_a_costly_layout_is_replaced(monkeypatch):
    """With no SAT calls allowed a layout past its first question, the generator starts new
    layouts until one is unique at once: still unique, every island numbered."""
    monkeypatch.setattr(islands, "CALLS_PER_CELL", 0)
    made = islands.make(6, 6, random.Random(2))
    assert made.grids > 1 and made.moves == 0 and made.reshapes == 0
    assert check_nurikabe(6, 6, made.puzzle.numbers(), made.solution) == []
    assert api.solve(made.puzzle, unique=True).status == "unique"


def test_a_rival_that_a_refill_makes_ours_is_forgotten(monkeypatch):
    """A reshape whose refill paints exactly a remembered rival's colouring makes that rival our
    solution: no move kills it, so it must be forgotten, not reshaped again and again until the
    layout's budget throws the grid away."""
    made_ours = []

    def reshape(layout, rival, rng, lo, hi, budget):
        if made_ours:
            return real(layout, rival, rng, lo, hi, budget)
        for i in reversed(range(len(layout.islands))):
            layout.remove(i)
        for p in sorted(rival.white):
            k = rival.comp[p]
            while len(layout.islands) <= k:
                layout.islands.append([])
                layout.seeds.append(None)
                layout.pins.append(None)
            layout.set(p, k)
            layout.islands[k].append(p)
        made_ours.append(rival.white)
        return True

    real = islands._reshape
    monkeypatch.setattr(islands, "_reshape", reshape)
    made = islands.make(10, 10, random.Random(12021))
    assert made_ours and made.reshapes >= 1
    assert made.grids == 1
    assert check_nurikabe(10, 10, made.puzzle.numbers(), made.solution) == []
    assert api.solve(made.puzzle, unique=True).status == "unique"


def test_a_reshape_carries_the_walls_cuts(monkeypatch):
    """After a reshape the new session starts with the wall's cuts of the sessions before
    (ConnectedSubgraph.side_cuts; their soundness is tested in test_connectivity.py): the puzzle
    is still unique for a fresh solver, every island numbered."""
    from satgrid.connectivity import ConnectedSubgraph

    carried = []
    real = ConnectedSubgraph.side_cuts

    def side_cuts(self, sides, far, pool):
        clauses = real(self, sides, far, pool)
        carried.append((len(sides), len(clauses)))
        return clauses

    monkeypatch.setattr(ConnectedSubgraph, "side_cuts", side_cuts)
    made = islands.make(10, 10, random.Random(12021))
    assert made.reshapes >= 1 and carried and all(n > 0 and k > 0 for n, k in carried)
    assert check_nurikabe(10, 10, made.puzzle.numbers(), made.solution) == []
    assert "?" not in made.puzzle.numbers().values()
    result = api.solve(made.puzzle, unique=True)
    assert result.status == "unique" and result.solution == made.solution


def test_rival_counts_follow_moves():
    """``Rival.after`` (one number moved, counted in O(1)) agrees with counting afresh, and so
    does ``Rival.move`` over a run of moves."""
    rng = random.Random(4)
    layout = islands.random_solution(7, 7, rng, (1, 5))
    layout.seeds = [cells[rng.randrange(len(cells))] for cells in layout.islands]
    for _ in range(5):
        other = islands.random_solution(7, 7, rng, (1, 5))  # any colouring with islands
        rival = islands.Rival({p for p in other.cells if other.owner[p] is not None}, layout.near)
        numbers = layout.numbers()
        rival.load(numbers)
        for i, cells in enumerate(layout.islands):
            s = layout.seeds[i]
            for p in cells:
                moved = {q: n for q, n in numbers.items() if q != s} | {p: len(cells)}
                expected = islands.Rival(rival.white, layout.near).load(moved)
                assert rival.after(len(cells), s, p) == expected
        for _ in range(20):  # a run of moves, counted in O(1) each
            i = rng.randrange(len(layout.islands))
            cells, s = layout.islands[i], layout.seeds[i]
            p = cells[rng.randrange(len(cells))]
            rival.move(len(cells), s, p)
            del numbers[s]
            layout.seeds[i], numbers[p] = p, len(cells)
            fresh = islands.Rival(rival.white, layout.near)
            assert (fresh.load(numbers), fresh.count, fresh.total) == (rival.bad, rival.count, rival.total)


def test_wall_connected_agrees_with_networkx():
    """``Layout.wall_connected`` (a search over cell indices on the black cells ``Layout.set``
    keeps) against networkx, for random cells turned white and black on random layouts."""
    import networkx as nx

    rng = random.Random(8)
    for rows, cols in [(1, 5), (4, 4), (5, 7), (8, 8)]:
        for _ in range(15):
            layout = islands.random_solution(rows, cols, rng, (1, 4))
            black = {p for p in layout.cells if layout.owner[p] is None}
            whiter = rng.sample(sorted(black), rng.randint(0, min(3, len(black))))
            blacker = rng.sample(sorted(set(layout.cells) - black), rng.randint(0, 2))
            wall = (black - set(whiter)) | set(blacker)
            graph = nx.Graph()
            graph.add_nodes_from(wall)
            graph.add_edges_from((p, q) for p in wall for q in layout.near(p) if q in wall)
            assert layout.wall_connected(whiter, blacker) == (not wall or nx.is_connected(graph))
            assert layout.wall_connected() is True  # a layout's wall is one piece


def test_refresh_marks_the_islands_near_a_change():
    """``Layout.refresh(reach)`` marks stale exactly the pins of the islands with a cell within
    ``reach`` rows and columns of a cell that changed colour."""
    rng = random.Random(9)
    for _ in range(10):
        layout = islands.random_solution(9, 9, rng, (1, 4))
        layout.changed.clear()
        layout.pins = [list(cells) for cells in layout.islands]
        changed = set(rng.sample(layout.cells, 2))
        layout.changed |= changed
        layout.refresh(2)
        for cells, pins in zip(layout.islands, layout.pins):
            near = any(abs(r - a) <= 2 and abs(c - b) <= 2 for r, c in cells for a, b in changed)
            assert (pins is None) == near


def test_normal_nurikabes_are_solved_by_the_ladder():
    puzzle = islands.generate(6, 6, random.Random(3), flavour="normal")
    assert grading.grade(puzzle) in (0, 1)
    assert api.solve(puzzle, unique=True).status == "unique"


def test_nurikabe_seeds_reproduce_the_puzzle():
    assert islands.generate(5, 6, random.Random(8)) == islands.generate(5, 6, random.Random(8))


def test_bad_island_ranges_are_refused():
    with pytest.raises(SatgridError, match="island sizes"):
        islands.random_solution(5, 5, random.Random(1), (3, 2))


# -- through the driver and the CLI --------------------------------------------------------------
@pytest.mark.parametrize("genre,options", [("slitherlink", {}), ("nurikabe", {"unknown_sizes": True})])
def test_driver_audits_and_grades(genre, options):
    hard = generate_one(genre, 5, 5, seed=21, flavour="hard", genre_options=options)
    assert hard.result.status == "unique" and hard.result.minimal and hard.grade in (0, 1, 2)
    normal = generate_one(genre, 5, 5, seed=21, flavour="normal")
    assert normal.result.status == "unique" and normal.grade in (0, 1)


def test_cli_generate_slitherlink_json():
    import json

    out = CliRunner().invoke(main, ["generate", "slitherlink", "--size", "6x5", "--seed", "4",
                                    "--format", "json"])
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["rows"] == 6 and record["cols"] == 5 and record["minimal"] is True  # ROWSxCOLS
    assert record["status"] == "unique" and record["seed"] == 4


def test_cli_generate_takes_growth_ratios_and_island_sizes():
    import json

    out = CliRunner().invoke(main, ["generate", "nurikabe", "--size", "7x7", "--islands", "3-4",
                                    "--seed", "3", "--format", "json"])
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    # every island of the solution has 3 or 4 cells: white cells / islands is in that range
    whites = sum(row.count(".") for row in record["solution"])
    islands_count = sum(1 for row in record["puzzle"] for v in row if v != 0)
    assert 3 * islands_count <= whites <= 4 * islands_count
    out = CliRunner().invoke(main, ["generate", "slitherlink", "--size", "6x6", "--ratios", "33/67/0",
                                    "--seed", "5", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["status"] == "unique"
    for args, message in (
        (["sudoku", "--size", "4x4", "--ratios", "1/1/1"], "--ratios is for slitherlink"),
        (["nurikabe", "--size", "5x5", "--islands", "2x4"], "is not 2 numbers"),
        (["slitherlink", "--size", "5x5", "--ratios", "1/2"], "is not 3 numbers"),
        (["nurikabe", "--size", "5x5", "--islands", "5-2"], "island sizes must be a range"),
    ):
        out = CliRunner().invoke(main, ["generate", *args])
        assert out.exit_code in (1, 2) and message in out.output, out.output


def test_cli_generate_nurikabe_numbers_every_island_unless_asked():
    import json

    def run(*extra):
        out = CliRunner().invoke(main, ["generate", "nurikabe", "--size", "6x6", "--seed", "3",
                                        "--format", "json", *extra])
        assert out.exit_code == 0, out.output
        return json.loads(out.output)

    standard, relaxed = run(), run("--unknown-sizes")
    sizes = [v for row in standard["puzzle"] for v in row if v != 0]
    assert standard["unknown_sizes"] == 0 and "?" not in sizes and standard["numbers"] == len(sizes)
    assert standard["status"] == "unique"
    assert standard["minimal"] == (not standard["redundant_clues"])
    assert relaxed["status"] == "unique" and relaxed["minimal"] is True
    unknown = [v for row in relaxed["puzzle"] for v in row if v == "?"]
    assert relaxed["unknown_sizes"] == len(unknown) and relaxed["numbers"] == len(sizes)
    assert relaxed["solution"] == standard["solution"]
    # the flag belongs to Nurikabe only, and takes no value
    out = CliRunner().invoke(main, ["generate", "sudoku", "--size", "4x4", "--unknown-sizes"])
    assert out.exit_code == 2 and "--unknown-sizes is for nurikabe" in out.output
    text = CliRunner().invoke(main, ["generate", "nurikabe", "--size", "5x5", "--seed", "1"])
    assert text.exit_code == 0 and "unknown-sizes: 0" in text.output


def test_the_solver_named_serves_the_generator_and_its_audit(monkeypatch):
    """Without a solver named, Slitherlink generation uses its own (minisat-gh); a named one
    serves every generator's sessions, not only the audit."""
    from satgrid.session import Session

    used: list[str] = []
    made = Session.__post_init__

    def record(self):
        used.append(self.solver_name)
        made(self)

    monkeypatch.setattr(Session, "__post_init__", record)
    # the generator's session comes first, then the audit's (grading keeps its own solver)
    generate_one("slitherlink", 4, 4, seed=5)
    assert used[:2] == ["minisat-gh", "minisat-gh"]
    for genre in ("slitherlink", "nurikabe"):
        used.clear()
        result = generate_one(genre, 4, 4, seed=5, options=api.Options(solver="glucose4"))
        assert used[0] == "glucose4" and result.result.solver == "glucose4"
    out = CliRunner().invoke(main, ["generate", "slitherlink", "--size", "4x4", "--seed", "5",
                                    "--solver", "glucose4", "--format", "json"])
    assert out.exit_code == 0 and '"solver": "glucose4"' in out.output
