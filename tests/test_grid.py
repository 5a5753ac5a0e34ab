"""The grid layer: tables checked against brute force on small grids and hand-made examples."""
from __future__ import annotations

from itertools import product

import pytest

from satgrid.grid import (
    DIAGONAL, KING, ORTHOGONAL, Grid, canonical, fixed_polyominoes, normalise, runs, transforms,
)

SIZES = [(1, 1), (1, 4), (3, 1), (2, 3), (4, 4), (3, 5)]


def all_cells(rows: int, cols: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(rows) for c in range(cols)]


@pytest.mark.parametrize("rows,cols", SIZES)
def test_cells_and_neighbours_against_brute_force(rows: int, cols: int) -> None:
    g = Grid(rows, cols)
    cells = all_cells(rows, cols)
    assert list(g.cells) == cells and len(g) == rows * cols
    assert [g.index(p) for p in cells] == list(range(rows * cols))
    for p in cells:
        four = {q for q in cells if abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1}
        eight = {q for q in cells if max(abs(p[0] - q[0]), abs(p[1] - q[1])) == 1}
        assert set(g.neighbours(p)) == four and len(g.neighbours(p)) == len(four)
        assert set(g.king_neighbours(p)) == eight and len(g.king_neighbours(p)) == len(eight)
        for q in g.neighbours(p):  # symmetric
            assert p in g.neighbours(q)
        for q in g.king_neighbours(p):
            assert p in g.king_neighbours(q)
        assert [g.cells[i] for i in g.near[g.index(p)]] == g.neighbours(p) == list(g.adjacency[p])
    pairs = {frozenset((p, q)) for p in cells for q in cells if abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1}
    assert len(g.links) == len(pairs) == rows * (cols - 1) + (rows - 1) * cols
    assert {frozenset(pair) for pair in g.adjacent_pairs()} == pairs
    assert all(p < q for p, q in g.links)


def test_neighbour_order_and_outside_cells() -> None:
    g = Grid(3, 3)
    assert g.neighbours((1, 1)) == [(0, 1), (2, 1), (1, 0), (1, 2)]
    assert g.neighbours((0, 0)) == [(1, 0), (0, 1)]
    assert g.king_neighbours((1, 1)) == [(1 + dr, 1 + dc) for dr, dc in KING]
    assert KING == ORTHOGONAL + DIAGONAL and len(set(KING)) == 8
    assert (3, 0) not in g and (0, -1) not in g and (2, 2) in g and "x" not in g
    with pytest.raises(ValueError):
        Grid(-1, 2)


def test_shared_instances_keep_their_tables() -> None:
    assert Grid.of(4, 5) is Grid.of(4, 5) and Grid.of(4, 5) == Grid(4, 5)
    assert Grid.of(4, 5).near is Grid.of(4, 5).near


@pytest.mark.parametrize("rows,cols", SIZES)
def test_lattice_against_brute_force(rows: int, cols: int) -> None:
    g = Grid(rows, cols)
    dots = [(i, j) for i in range(rows + 1) for j in range(cols + 1)]
    assert list(g.dots) == dots
    segments = {frozenset((a, b)) for a in dots for b in dots if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1}
    keys = g.edge_keys
    assert len(keys) == len(set(keys)) == len(segments) == (rows + 1) * cols + rows * (cols + 1)
    assert {frozenset(g.edge_ends(k)) for k in keys} == segments
    assert list(g.edge_dots) == [g.edge_ends(k) for k in keys]
    assert keys[0] == ("h", 0, 0) and keys[-1] == ("v", rows - 1, cols)
    assert all(k[0] == "h" for k in keys[:(rows + 1) * cols])
    for dot in dots:
        at = g.edges_at(dot)
        assert sorted(at) == sorted(k for k in keys if dot in g.edge_ends(k))
    assert [keys[k] for k in g.edge_index.values()] == list(keys)
    for p in g.cells:
        around = g.sides(p)
        assert [keys[k] for k in g.side_indices[g.index(p)]] == around
        # each side's two dots are corners of the cell, and side k faces neighbour k
        assert all(set(g.edge_ends(k)) <= set(g.corners(p)) for k in around)
        assert len(set(around)) == 4 and set(around) <= set(keys)
        for k, (dr, dc) in zip(around, ORTHOGONAL):
            q = (p[0] + dr, p[1] + dc)
            assert g.cells_beside(k) == sorted(x for x in (p, q) if x in g)
            if q in g:
                assert g.border(p, q) == g.border(q, p) == k
    for k in keys:  # every edge borders one or two cells, and has them as sides
        beside = g.cells_beside(k)
        assert 1 <= len(beside) <= 2 and all(k in g.sides(p) for p in beside)
    with pytest.raises(ValueError):
        g.border((0, 0), (1, 1))


def test_windows_boxes_and_lines() -> None:
    g = Grid(3, 4)
    windows = g.windows()
    assert len(windows) == 2 * 3
    assert windows[0] == ((0, 0), (0, 1), (1, 0), (1, 1)) and windows[-1] == ((1, 2), (1, 3), (2, 2), (2, 3))
    squares = {frozenset(q) for q in product(g.cells, repeat=4)
               if len(set(q)) == 4 and max(r for r, _ in q) - min(r for r, _ in q) == 1
               and max(c for _, c in q) - min(c for _, c in q) == 1}
    assert {frozenset(w) for w in windows} == squares and len(windows) == len(squares)
    for (h, w) in [(1, 1), (2, 2), (3, 4), (2, 3), (1, 4)]:
        found = g.windows(h, w)
        assert len(found) == (3 - h + 1) * (4 - w + 1) and all(len(x) == h * w for x in found)
    assert g.windows(4, 1) == []
    assert [g.row(1), g.column(3)] == [[(1, 0), (1, 1), (1, 2), (1, 3)], [(0, 3), (1, 3), (2, 3)]]
    assert len(g.lines()) == 7 and g.lines()[0] == g.row(0) and g.lines()[3] == g.column(0)
    six = Grid(6, 6)
    boxes = six.boxes(2, 3)
    assert len(boxes) == 6 and boxes[1] == ((0, 3), (0, 4), (0, 5), (1, 3), (1, 4), (1, 5))
    assert sorted(p for box in boxes for p in box) == list(six.cells)
    with pytest.raises(ValueError):
        six.boxes(4, 3)


def test_runs_on_hand_made_lines() -> None:
    shaded = {(0, 0), (0, 1), (0, 3), (1, 1), (2, 1), (2, 2), (2, 3)}
    g = Grid(3, 4)
    assert runs(g.row(0), shaded.__contains__) == [((0, 0), (0, 1)), ((0, 3),)]
    assert runs(g.row(1), shaded.__contains__) == [((1, 1),)]
    assert runs(g.column(1), shaded.__contains__) == [((0, 1), (1, 1), (2, 1))]
    assert runs(g.row(2), lambda p: p not in shaded) == [((2, 0),)]
    assert runs([], shaded.__contains__) == []
    every = g.runs(shaded.__contains__)
    # rows: 2 + 1 + 1, columns: 1 + 1 + 1 + 2
    assert len(every) == 9
    assert sum(len(run) for run in every) == 2 * len(shaded)  # each cell once in its row and column


def test_runs_against_brute_force() -> None:
    line = [(0, c) for c in range(7)]
    for mask in range(1 << 7):
        on = {(0, c) for c in range(7) if mask >> c & 1}
        found = runs(line, on.__contains__)
        assert [p for run in found for p in run] == sorted(on)
        for run in found:  # consecutive and maximal
            cs = [c for _, c in run]
            assert cs == list(range(cs[0], cs[-1] + 1))
            assert (0, cs[0] - 1) not in on and (0, cs[-1] + 1) not in on


def test_sightlines_stop_at_blocked_cells() -> None:
    g = Grid(5, 5)
    blocked = {(0, 2), (2, 4), (4, 2)}
    up, down, left, right = g.sightlines((2, 2), blocked.__contains__)
    assert up == [(1, 2)]
    assert down == [(3, 2)]
    assert left == [(2, 1), (2, 0)]
    assert right == [(2, 3)]
    assert g.sightline((0, 0), (0, 1), blocked.__contains__) == [(0, 1)]
    assert g.sightline((0, 0), (-1, 0), blocked.__contains__) == []
    assert g.sightline((4, 4), (0, -1), lambda p: False) == [(4, 3), (4, 2), (4, 1), (4, 0)]


def test_components_against_union_find() -> None:
    g = Grid(4, 4)
    cells = {(0, 0), (0, 1), (1, 2), (2, 2), (3, 0), (2, 3), (3, 3)}
    assert g.components(cells) == [[(0, 0), (0, 1)], [(1, 2), (2, 2), (2, 3), (3, 3)], [(3, 0)]]
    assert g.components(cells, diagonal=True) == [[(0, 0), (0, 1), (1, 2), (2, 2), (2, 3), (3, 3)], [(3, 0)]]
    assert g.components([]) == []
    assert g.components(iter(cells)) == g.components(cells)  # any iterable, read once
    assert g.components([*cells, (5, 5)])[-1] == [(5, 5)]  # a cell off the grid: a group of its own
    # every subset of a 3x3 grid: groups partition the set and match a union-find
    small = Grid(3, 3)
    for mask in range(1 << 9):
        on = [p for k, p in enumerate(small.cells) if mask >> k & 1]
        parent = {p: p for p in on}

        def root(p):
            while parent[p] != p:
                p = parent[p]
            return p
        for p in on:
            for q in small.neighbours(p):
                if q in parent:
                    parent[root(p)] = root(q)
        groups = small.components(on)
        assert sorted(p for group in groups for p in group) == sorted(on)
        assert len(groups) == len({root(p) for p in on})
        assert all(len({root(p) for p in group}) == 1 for group in groups)


def test_groups_match_rooms_from_ids() -> None:
    """Equal-value groups by cell index: the same partition as :meth:`Grid.rooms_from_ids`,
    each group led by its first cell, in the order of that cell, and labelled per cell."""
    import random
    rng = random.Random(7)
    for rows, cols in SIZES:
        g = Grid(rows, cols)
        for _ in range(100):
            ids = [[rng.randrange(3) for _ in range(cols)] for _ in range(rows)]
            groups, label = g.groups([x for row in ids for x in row])
            assert [sorted(divmod(i, cols) for i in group) for group in groups] == g.rooms_from_ids(ids)
            assert [group[0] for group in groups] == sorted(min(group) for group in groups)
            assert all(label[i] == k for k, group in enumerate(groups) for i in group)
    assert Grid(2, 3).groups("#..###") == ([[0, 3, 4, 5], [1, 2]], [0, 1, 1, 0, 0, 0])
    with pytest.raises(ValueError):
        Grid(2, 2).groups("...")


def test_dot_edges_by_index() -> None:
    for rows, cols in SIZES:
        g = Grid(rows, cols)
        dots = list(g.dots)
        assert [(dots[a], dots[b]) for a, b in g.edge_dot_indices] == list(g.edge_dots)
        for d, dot in enumerate(dots):
            assert sorted(g.dot_edges[d]) == sorted(
                (g.edge_index[k], dots.index(next(e for e in g.edge_ends(k) if e != dot)))
                for k in g.edges_at(dot))


def test_rooms_from_ids_and_from_borders() -> None:
    ids = ["aab",
           "acb",
           "ccb"]
    g = Grid(3, 3)
    rooms = g.rooms_from_ids(ids)
    assert rooms == [[(0, 0), (0, 1), (1, 0)], [(0, 2), (1, 2), (2, 2)], [(1, 1), (2, 0), (2, 1)]]
    # one id in two separate places makes two rooms
    assert len(g.rooms_from_ids(["aba", "bbb", "aba"])) == 5
    with pytest.raises(ValueError):
        g.rooms_from_ids(["aa", "aa", "aa"])
    # the same rooms drawn by borders: every edge between cells of different ids
    borders = {g.border(p, q) for p, q in g.adjacent_pairs() if ids[p[0]][p[1]] != ids[q[0]][q[1]]}
    assert g.rooms_from_borders(borders) == rooms
    assert g.rooms_from_borders(set()) == [list(g.cells)]
    # outer edges are not room borders
    assert g.rooms_from_borders({("h", 0, 0), ("v", 2, 3)}) == [list(g.cells)]
    # a border that does not close a room splits nothing
    assert len(g.rooms_from_borders({("v", 0, 1)})) == 1
    assert len(g.rooms_from_borders({("v", r, 1) for r in range(3)})) == 2


def test_rooms_from_random_ids_match_borders() -> None:
    import random
    rng = random.Random(4)
    g = Grid(4, 5)
    for _ in range(200):
        ids = [[rng.randrange(3) for _ in range(5)] for _ in range(4)]
        rooms = g.rooms_from_ids(ids)
        borders = {g.border(p, q) for p, q in g.adjacent_pairs() if ids[p[0]][p[1]] != ids[q[0]][q[1]]}
        assert g.rooms_from_borders(borders) == rooms
        for room in rooms:
            assert len({ids[r][c] for r, c in room}) == 1
            assert len(g.components(room)) == 1


def test_the_eight_transforms_of_a_shape() -> None:
    ell = {(0, 0), (1, 0), (2, 0), (2, 1)}  # the L tetromino
    images = transforms(ell)
    assert len(images) == 8 and images[0] == normalise(ell)
    assert len(set(images)) == 8  # L has no symmetry
    assert frozenset({(0, 0), (0, 1), (0, 2), (1, 0)}) in images  # a quarter turn
    assert frozenset({(0, 1), (1, 1), (2, 1), (2, 0)}) in images  # the mirror image (J)
    assert len(set(transforms({(0, 0), (0, 1), (1, 0), (1, 1)}))) == 1  # O
    assert len(set(transforms({(0, 0), (0, 1), (0, 2), (0, 3)}))) == 2  # I
    assert len(set(transforms({(0, 0), (0, 1), (1, 1), (1, 2)}))) == 4  # S/Z
    assert all(len(image) == 4 for image in images)
    # translated, turned and mirrored copies share the canonical form; other shapes do not
    moved = {(r + 5, c + 3) for r, c in images[5]}
    assert canonical(moved) == canonical(ell)
    assert canonical({(0, 0), (0, 1), (0, 2), (1, 1)}) != canonical(ell)
    assert normalise([]) == frozenset()


def test_polyomino_counts() -> None:
    """Fixed polyominoes (OEIS A001168) and free ones via canonical forms (A000105)."""
    fixed = [1, 2, 6, 19, 63, 216]
    free = [1, 1, 2, 5, 12, 35]
    for size in range(1, 7):
        shapes = fixed_polyominoes(size)
        assert len(shapes) == fixed[size - 1]
        assert all(len(s) == size and normalise(s) == s and len(Grid(size, size).components(s)) == 1
                   for s in shapes)
        assert len({canonical(s) for s in shapes}) == free[size - 1]
    with pytest.raises(ValueError):
        fixed_polyominoes(0)


def test_grid_does_not_import_pysat() -> None:
    from .test_checkers_independent import pysat_modules_after_importing
    assert pysat_modules_after_importing("satgrid.grid") == []
