"""The model builder's rules: every solution the encoding admits is one brute force admits, and
the other way round, on tiny grids, in both lowerings of the global rules; clue selectors,
switches and copies; labels."""
from __future__ import annotations

import random
from itertools import product

import pytest

from satgrid.grid import Grid
from satgrid.model import Model, read, read_numbers
from satgrid.session import Session
from satgrid.solver import Assignment

TETROMINOES = [((0, 0), (0, 1), (0, 2), (0, 3)), ((0, 0), (0, 1), (1, 0), (1, 1)),
               ((0, 0), (1, 0), (2, 0), (2, 1)), ((0, 0), (0, 1), (0, 2), (1, 1)),
               ((0, 0), (0, 1), (1, 1), (1, 2))]


def all_solutions(model: Model, layer: str, clues=None, connectivity="lazy") -> set[tuple]:
    """Every solution projected on a boolean layer, by blocking clauses on one session, with
    ``clues`` (``{key: value}``) switched on."""
    encoding = model.build()
    session = Session(encoding, connectivity=connectivity)
    assumptions = list(session.selectors(clues or {}).values())
    lits = encoding.layers[layer]
    found = set()
    while True:
        outcome = session.solve(list(assumptions))
        if outcome.status != "sat":
            assert outcome.status == "unsat"
            return found
        values = read(encoding, layer, outcome.assignment)
        found.add(tuple(sorted(p for p, on in values.items() if on)))
        session.solver.add([[-lit if values[p] else lit for p, lit in lits.items()]])


def brute(keys, ok) -> set[tuple]:
    keys = list(keys)
    return {tuple(sorted(k for k, b in zip(keys, bits) if b))
            for bits in product((0, 1), repeat=len(keys)) if ok({k for k, b in zip(keys, bits) if b})}


@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
def test_not_adjacent_no_2x2_connected(connectivity):
    grid = Grid.of(3, 3)
    m = Model(grid)
    shaded = m.cells()
    m.not_adjacent("shaded cells do not touch", shaded)
    m.connected("unshaded cells are connected", {p: -x for p, x in shaded.items()})
    expected = brute(grid.cells, lambda on: not any(p in on and q in on for p, q in grid.adjacent_pairs())
                     and len(grid.components(set(grid.cells) - on)) == 1)
    assert all_solutions(m, "shaded", connectivity=connectivity) == expected

    m = Model(grid)
    shaded = m.cells()
    m.no_2x2("no 2x2 shaded", shaded)
    m.connected("shaded cells are connected", shaded)
    expected = brute(grid.cells, lambda on: len(grid.components(on)) <= 1
                     and not any(all(p in on for p in w) for w in grid.windows()))
    assert len(expected) > 100
    assert all_solutions(m, "shaded", connectivity=connectivity) == expected


@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
def test_single_loop_through_cells_and_on_the_lattice(connectivity):
    grid = Grid.of(3, 3)
    m = Model(grid)
    line = m.links("line")
    m.single_loop("one loop", line, through=[(1, 1)])

    def one_loop_through_centre(on):
        degree = {p: 0 for p in grid.cells}
        for p, q in on:
            degree[p] += 1
            degree[q] += 1
        if not on or any(d not in (0, 2) for d in degree.values()) or degree[1, 1] == 0:
            return False
        visited = {p for p, d in degree.items() if d}
        return len(Grid.of(3, 3).components(visited)) == 1 and _cycle_connected(on)
    expected = brute(list(line), one_loop_through_centre)
    assert expected and all_solutions(m, "line", connectivity=connectivity) == expected
    assert m.build().block_true_only

    m = Model(Grid.of(2, 2))
    edges = m.edges()
    m.single_loop("one loop", edges)
    # Loops on a 2x2 cell lattice: 4 single squares, 4 dominoes, 4 L-trominoes, the big square.
    assert len(all_solutions(m, "edge", connectivity=connectivity)) == 13


def _cycle_connected(links) -> bool:
    import networkx as nx
    graph = nx.Graph(list(links))
    return nx.is_connected(graph)


def test_all_different_and_read_numbers():
    grid = Grid.of(3, 3)
    m = Model(grid)
    digit = m.numbers("digit", [1, 2, 3])
    m.all_different("no digit repeats in a row or column", digit, grid.lines())
    encoding = m.build()
    assert encoding.primary["digit", 0, 0, 1] == 1 and encoding.block_true_only
    session = Session(encoding)
    count = 0
    while (outcome := session.solve()).status == "sat":
        values = read_numbers(encoding, "digit", outcome.assignment)
        rows = [[values[r, c] for c in range(3)] for r in range(3)]
        assert all(sorted(row) == [1, 2, 3] for row in rows)
        assert all(sorted(col) == [1, 2, 3] for col in zip(*rows))
        session.solver.add([[-digit[p][v] for p, v in values.items()]])
        count += 1
    assert count == 12  # Latin squares of order 3


def test_sightline_count():
    grid = Grid.of(3, 3)
    m = Model(grid)
    shaded = m.cells()
    m.require("a numbered cell is unshaded", [[-shaded[1, 1]]])
    m.sightline_count("the number counts the cells it sees", (1, 1), {p: -x for p, x in shaded.items()}, 3)

    def sees_three(on):
        if (1, 1) in on:
            return False
        seen = sum(len(line) for line in grid.sightlines((1, 1), lambda p: p in on))
        return seen + 1 == 3
    expected = brute(grid.cells, sees_three)
    assert expected and all_solutions(m, "shaded") == expected


@pytest.mark.parametrize("k", [1, 2, 4, 6, 7])
def test_sightline_count_as_a_clue_switched_on_and_off(k):
    """The clue form: chains made in the base, the count behind the clue's selector; with the
    clue off, the chains constrain nothing."""
    grid = Grid.of(3, 4)
    m = Model(grid)
    shaded = m.cells()
    unshaded = {p: -x for p, x in shaded.items()}
    lines = m.sightlines((1, 1), unshaded)

    @m.clue
    def number(c, cell, value):
        c.require([[unshaded[cell]]])
        c.sightline_count(lines, value)

    def sees(on):
        return (1, 1) not in on and 1 + sum(len(line) for line in grid.sightlines((1, 1), lambda p: p in on)) == k
    assert all_solutions(m, "shaded", {(1, 1): k}) == brute(grid.cells, sees)
    assert len(all_solutions(m, "shaded")) == 2 ** 12


def test_shapes_in_rooms_and_equal_shapes_apart():
    grid = Grid.of(2, 4)
    rooms = [[(0, 0), (0, 1), (1, 0), (1, 1)], [(0, 2), (0, 3), (1, 2), (1, 3)]]
    m = Model(grid)
    shaded = m.cells()
    shape_of = m.shapes_in_rooms("each room holds one tetromino", rooms, shaded, TETROMINOES)
    m.equal_shapes_apart("equal tetrominoes do not touch", rooms, shaded, shape_of)
    # Each 2x2 room can only hold the square, so both rooms are full squares, touching: none.
    assert all_solutions(m, "shaded") == set()

    grid = Grid.of(3, 3)
    room = list(grid.cells)
    m = Model(grid)
    shaded = m.cells()
    m.shapes_in_rooms("the room holds one tetromino", [room], shaded, TETROMINOES)
    placements = brute(grid.cells, lambda on: len(on) == 4 and len(grid.components(on)) == 1)
    assert all_solutions(m, "shaded") == placements


def test_clues_switches_and_copies():
    """A clue's clauses hold only while its selector is assumed; a switch is the same literal;
    a copy of the encoding makes selectors on its own pool; labels name the clauses."""
    grid = Grid.of(2, 2)
    m = Model(grid)
    shaded = m.cells()
    m.not_adjacent("shaded cells do not touch", shaded)

    @m.clue
    def count(c, cell, k):
        c.exactly([shaded[q] for q in grid.neighbours(cell)], k)

    encoding = m.build()
    assert [name for name, _, _ in encoding.spans] == ["shaded cells do not touch"]
    clue = encoding.encode_clue((0, 0), 2)
    assert clue.selector == m.switch((0, 0), 2) and clue.clauses
    assert all_solutions(m, "shaded", {(0, 0): 2}) == {((0, 1), (1, 0))}
    assert len(all_solutions(m, "shaded")) == 7
    twin = encoding.copy()
    assert twin.encode_clue((0, 0), 2).selector == clue.selector
    fresh = twin.encode_clue((1, 1), 1)
    assert fresh.selector not in {clue.selector} and twin.pool.key(fresh.selector) == ("clue", 1, 1, 1)


def test_read_numbers_from_a_model_slice_agrees_with_reading_literal_by_literal():
    """A one-hot layer numbered consecutively is read from one slice of a solver's model; it
    reads what the literal-by-literal reading (a value function) reads, on models with no, one
    or several true values per cell, and a layer whose numbering has a gap is read the slow way."""
    m = Model(Grid.of(2, 3))
    m.cells("shaded")
    digit = m.numbers("digit", [2, 4, 7])
    assert digit.first == 7 and digit.domain == (2, 4, 7)
    other = Model(Grid.of(2, 3))
    other.pool.var("number", 1, 1, 5)  # taken before the layer: not consecutive
    assert other.numbers("number", [5, 6]).first is None
    rnd = random.Random(3)
    for builder, layer in ((m, "digit"), (other, "number")):
        encoding = builder.build()
        for _ in range(200):
            model = [v if rnd.random() < 0.3 else -v for v in range(1, encoding.pool.top + 1)]
            fast = read_numbers(encoding, layer, Assignment(model), empty=0)
            slow = read_numbers(encoding, layer, Assignment(model).__call__, empty=0)
            assert fast == slow and list(fast) == list(Grid.of(2, 3).cells)
            for p, v in fast.items():
                true = [w for w, lit in encoding.layers[layer][p].items() if model[lit - 1] > 0]
                assert v == (true[0] if true else 0)


def test_a_literal_clue_draws_no_selector():
    """A clue that is a literal (a Sudoku given) is that literal, with no selector variable drawn
    on the copy's pool (unused variables widen the solver's range and slow every call)."""
    m = Model(Grid.of(2, 2))
    digit = m.numbers("digit", [1, 2])

    @m.clue
    def given(c, cell, d):
        c.is_literal(digit[cell][d])

    twin = m.build().copy()
    top = twin.pool.top
    clue = twin.encode_clue((1, 0), 2)
    assert clue.selector == digit[1, 0][2] and clue.clauses == () and twin.pool.top == top


def test_made_once_builds_once_and_hands_out_copies():
    """An encoder decorated with made_once builds once per arguments (its global rules' clauses
    made then); each call returns a copy with a pool of its own, clauses and rules shared."""
    from satgrid.model import made_once

    built = []

    @made_once(maxsize=4)
    def loops(rows: int, cols: int):
        built.append((rows, cols))
        m = Model(Grid.of(rows, cols))
        m.single_loop("one loop", m.edges())
        return m.build()

    a, b, c = loops(2, 2), loops(2, 2), loops(2, 3)
    assert built == [(2, 2), (2, 3)]
    assert a.pool is not b.pool and a.clauses is b.clauses and a.rules is b.rules
    template = loops.template(2, 2)
    top = template.pool.top
    assert template.rules[0]._clauses is not None  # the loop rule's clauses made on the template
    a.pool.fresh("cut")
    assert template.pool.top == top and b.pool.top == top and c.pool is not a.pool


def test_a_switch_only_clue_switches_its_tied_rules_on():
    """A clue whose clauses live in the base behind ``m.switch`` (none of its own) is the clause
    "selector": assumed, the tied rule holds; in a plain export the selector is forced; the base
    has no variable beyond the layer and the switch."""
    m = Model(Grid.of(1, 2))
    shaded = m.cells()
    switch = m.switch((0, 0), 1)
    m.require("a switched-on number shades its cell", [[-switch, shaded[0, 0]]])

    @m.clue
    def number(c, cell, k):
        pass

    encoding = m.build()
    assert encoding.pool.top == 3
    clue = encoding.copy().encode_clue((0, 0), 1)
    assert clue.selector == switch and clue.plain() == [[switch]]
    assert all_solutions(m, "shaded", {(0, 0): 1}) == {((0, 0),), ((0, 0), (0, 1))}
    assert len(all_solutions(m, "shaded")) == 4


@pytest.mark.parametrize("most", [1, 2, 3])
def test_no_closed_pieces_against_brute_force(most):
    """``no_closed_pieces``: behind a guard, no connected piece of up to ``most`` true cells has
    every neighbour false; the guard off, any set (3x3 grid, brute force over every set). With the
    connected rule and more than ``most`` true cells it removes no solution."""
    grid = Grid.of(3, 3)
    m = Model(grid)
    cells = m.cells()
    guard = m.pool.var("guard")
    m.require("guard on", [[guard]])
    m.no_closed_pieces("pieces have a way out", cells, most, guard)

    def closed(on):
        return any(len(part) <= most for part in grid.components(on))

    assert all_solutions(m, "shaded") == brute(grid.cells, lambda on: not closed(on))
    m = Model(grid)
    cells = m.cells()
    m.no_closed_pieces("pieces have a way out", cells, most, -m.true())  # guard always false
    assert all_solutions(m, "shaded") == brute(grid.cells, lambda on: True)
    m = Model(grid)
    cells = m.cells()
    m.at_least("more than most", list(cells.values()), most + 1)
    m.no_closed_pieces("pieces have a way out", cells, most)
    m.connected("connected", cells)
    assert all_solutions(m, "shaded") == brute(
        grid.cells, lambda on: len(on) > most and len(grid.components(on)) == 1)
