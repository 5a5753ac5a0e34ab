"""The rooms layer (satgrid/rooms.py and its pieces in the formats and the drawing), on its own:
no genre involved. The puz.link border body and the pzprv3 room section are cross-checked against
the puz.link engine (pzpr under node) when it is installed."""
from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, replace
from typing import ClassVar

import networkx as nx
import pytest

from satgrid import render_svg, rooms
from satgrid.errors import ParseError, UnsupportedGenre
from satgrid.formats import puzzlekit, puzzlink, pzprv3
from satgrid.reader import Record

IDS = ("a a b", "c a b", "c c c")


@dataclass(frozen=True)
class Boxed(rooms.RoomPuzzle):
    genre: ClassVar[str] = "boxed"


def record(text: str) -> Record:
    return Record("f.txt", 1, "", None, lines=[(n, t) for n, t in enumerate(text.split("\n"), 1)])


def nx_rooms(rows: int, cols: int, ids) -> set[frozenset]:
    """The rooms of an id grid by networkx: components of equal-id side neighbours."""
    g = nx.Graph()
    g.add_nodes_from((r, c) for r in range(rows) for c in range(cols))
    g.add_edges_from(((r, c), (r + dr, c + dc)) for r in range(rows) for c in range(cols)
                     for dr, dc in ((0, 1), (1, 0))
                     if r + dr < rows and c + dc < cols and ids[r][c] == ids[r + dr][c + dc])
    return {frozenset(comp) for comp in nx.connected_components(g)}


# -- representation -------------------------------------------------------------------------------
def test_rooms_of_an_id_grid_are_canonical():
    found = rooms.rooms_from_ids([row.split() for row in IDS])
    assert found == (((0, 0), (0, 1), (1, 1)), ((0, 2), (1, 2)), ((1, 0), (2, 0), (2, 1), (2, 2)))
    assert rooms.room_ids(3, 3, found) == ((0, 0, 1), (2, 0, 1), (2, 2, 2))
    # one id in two separate places is two rooms (as pzprjs reads an id grid)
    split = rooms.rooms_from_ids([["x", "y", "x"]])
    assert split == (((0, 0),), ((0, 1),), ((0, 2),))


def test_borders_and_ids_round_trip_on_random_partitions():
    rng = random.Random(3)
    for _ in range(40):
        rows, cols = rng.randint(1, 9), rng.randint(1, 9)
        ids = [[rng.randint(0, 3) for _ in range(cols)] for _ in range(rows)]
        found = rooms.rooms_from_ids(ids)
        assert {frozenset(room) for room in found} == nx_rooms(rows, cols, ids)
        assert [room[0] for room in found] == sorted(room[0] for room in found)
        assert rooms.rooms_from_borders(rows, cols, rooms.borders(rows, cols, found)) == found
        assert rooms.rooms_from_ids(rooms.room_ids(rows, cols, found)) == found
        assert rooms.problems(rows, cols, found) == []


def test_top_cell_is_the_top_of_the_leftmost_column():
    assert rooms.top_cell(((0, 2), (0, 3), (1, 1), (1, 2), (2, 1))) == (1, 1)


def test_problems_name_what_is_not_a_partition():
    assert rooms.problems(2, 2, [[(0, 0), (1, 1)], [(0, 1)]]) == [
        "room 1 is not side-connected", "1 cell(s) in no room"]
    assert "cell (0, 0) is in two rooms" in rooms.problems(1, 2, [[(0, 0)], [(0, 0), (0, 1)]])
    assert "room 2 is empty" in rooms.problems(1, 1, [[(0, 0)], []])
    assert "outside" in rooms.problems(1, 1, [[(0, 0), (0, 1)]])[0]


def test_a_room_puzzle_keeps_its_rooms_and_compares_them():
    found = rooms.rooms_from_ids([row.split() for row in IDS])
    grid = ((1, None, None), (None, None, 2), (None, None, None))
    puzzle = Boxed(grid, rooms=found)
    assert puzzle.with_clues({(0, 0): 1}).rooms == found
    assert puzzle.with_clues({(0, 0): 1}).grid[1][2] is None
    other = Boxed(grid, rooms=rooms.rooms_from_ids([["a"] * 3] * 3))
    assert puzzle != other and puzzle == Boxed(grid, rooms=found)
    assert puzzle.room_of((2, 1)) == 2 and puzzle.room_borders == rooms.borders(3, 3, found)


# -- text -----------------------------------------------------------------------------------------
def test_text_reads_clues_then_rooms_and_writes_canonical_ids():
    text = rooms.read_text(record("1 . .\n. . 2\n. . .\na a b\nc a b\nc c c"))
    assert (text.rows, text.cols) == (3, 3)
    assert [[t for t, _ in row] for _, row in text.clues] == [["1", ".", "."], [".", ".", "2"], [".", ".", "."]]
    assert text.rooms == rooms.rooms_from_ids([row.split() for row in IDS])
    assert rooms.room_lines(3, 3, text.rooms) == ["1 1 2", "3 1 2", "3 3 3"]
    assert text.places[2] == ((6, 1), (6, 3), (6, 5))
    alone = rooms.read_text(record("7 7 12\n7 9  12"), clues=False)
    assert alone.clues == [] and alone.rooms == (((0, 0), (0, 1), (1, 0)), ((0, 2), (1, 2)), ((1, 1),))
    assert alone.places[1] == ((2, 1), (2, 3), (2, 6))
    many = rooms.rooms_from_ids([[str(c) for c in range(12)]])
    assert rooms.room_lines(1, 12, many) == [" 1  2  3  4  5  6  7  8  9 10 11 12"]


@pytest.mark.parametrize("text, clues, line, col, words", [
    (". .\n. .\na a", True, 3, None, "an even number"),
    (". .\n. . .\na a\nb b", True, 2, 5, "not rectangular"),
    (". .\n. .\na a\nb b c", True, 4, 5, "not rectangular"),
    (". .\n. .\na a b\nb b c", True, 3, 5, "has 3 columns, the clue grid 2"),
    (". .\n. .\na -\nb b", True, 3, 3, "'-' is not a room id"),
    ("a #", False, 1, 3, "'#' is not a room id"),
    ("", False, 1, None, "no grid"),
])
def test_text_errors_name_line_and_column(text, clues, line, col, words):
    with pytest.raises(ParseError) as caught:
        rooms.read_text(record(text), clues)
    assert words in caught.value.message
    assert (caught.value.source, caught.value.line, caught.value.column) == ("f.txt", line, col)


def test_json_round_trip_and_refusals():
    found = rooms.rooms_from_ids([row.split() for row in IDS])
    value = rooms.rooms_json(3, 3, found)
    assert value == [[1, 1, 2], [3, 1, 2], [3, 3, 3]]
    assert rooms.rooms_from_json(value, 3, 3) == found
    assert rooms.rooms_from_json([row.split() for row in IDS], 3, 3) == found
    for bad in ([[1, 1]], [[1, 1, 2]] * 3 + [[1, 1, 1]], [[1.5, 1, 1]] * 3, "rooms"):
        with pytest.raises(ValueError):
            rooms.rooms_from_json(bad, 3, 3)


# -- random partitions ------------------------------------------------------------------------------
def test_random_rooms_are_connected_partitions_within_the_bounds():
    rng = random.Random(5)
    for _ in range(60):
        rows, cols = rng.randint(1, 10), rng.randint(1, 10)
        low = rng.choice([1, 2, 3])
        high = rng.choice([None, low + 2, low + 5])
        if (high is not None and -(-rows * cols // high) > rows * cols // low) or rows * cols < low:
            continue
        found = rooms.random_rooms(rows, cols, rng, low, high)
        assert rooms.problems(rows, cols, found) == []
        assert found == rooms.canonical(found)
        assert all(low <= len(room) <= (high or rows * cols) for room in found)


def test_random_rooms_with_a_count_and_per_seed():
    for seed in range(10):
        found = rooms.random_rooms(8, 8, random.Random(seed), count=8)
        assert len(found) == 8 and rooms.problems(8, 8, found) == []
        assert found == rooms.random_rooms(8, 8, random.Random(seed), count=8)
    assert len({rooms.random_rooms(6, 6, random.Random(s)) for s in range(10)}) > 5


def test_random_rooms_refuse_impossible_bounds():
    with pytest.raises(ValueError):
        rooms.random_rooms(1, 5, random.Random(1), min_size=3, max_size=4)  # 5 cells: 3+? no
    with pytest.raises(ValueError):
        rooms.random_rooms(4, 4, random.Random(1), count=17)
    with pytest.raises(ValueError):
        rooms.random_rooms(4, 4, random.Random(1), min_size=0)


def test_grow_rooms_gives_each_seed_group_its_own_room():
    rng = random.Random(9)
    seeds = [[(0, 0), (0, 1)], [(3, 3)], [(5, 0), (5, 1)], [(2, 5), (3, 5)]]
    grown = [rooms.grow_rooms(6, 6, seeds, rng, max_size=size) for size in [None] * 20 + [12] * 20]
    assert all(found is not None for found in grown[:20])  # no bound: growth never stalls
    for found in filter(None, grown):
        assert rooms.problems(6, 6, found) == [] and len(found) == 4
        assert max(map(len, found)) <= 36 if found in grown[:20] else 12
        for group in seeds:
            assert sum(set(group) <= set(room) for room in found) == 1
    assert rooms.grow_rooms(1, 5, [[(0, 0)], [(0, 4)]], rng, max_size=2) is None
    with pytest.raises(ValueError):
        rooms.grow_rooms(2, 2, [[(0, 0)], [(0, 0)]], rng)


# -- puz.link -------------------------------------------------------------------------------------
def test_border_body_vectors():
    fail = lambda i, m: ParseError("u", 1, m, i)  # noqa: E731
    # 2x2, four rooms: vertical borders (0,0)|(0,1), (1,0)|(1,1) -> 11000; horizontal 11000
    assert puzzlink.encode_borders({("v", 0, 1), ("v", 1, 1), ("h", 1, 0), ("h", 1, 1)}, 2, 2) == "oo"
    assert puzzlink.decode_borders("oo", 2, 2, fail) == (
        frozenset({("v", 0, 1), ("v", 1, 1), ("h", 1, 0), ("h", 1, 1)}), 2)
    # 1x7: six vertical borders in two characters, no horizontal ones
    assert puzzlink.encode_borders({("v", 0, 6)}, 1, 7) == "0g"
    assert puzzlink.border_lengths(10, 10) == (18, 18)
    with pytest.raises(ParseError, match="has 2 characters, found 1"):
        puzzlink.decode_borders("o", 2, 2, fail)
    with pytest.raises(ParseError, match="bad character 'w'") as caught:
        puzzlink.decode_borders("ow", 2, 2, fail)
    assert caught.value.column == 1


def url(pid: str, rows: int, cols: int, body: str) -> puzzlink.Url:
    return puzzlink.Url(pid, "boxed", cols, rows, body, 20)


class _Pair(tuple):
    """(star count, puzzle) with the puzzle's size, as the codec's encode asks of what it writes."""
    rows = property(lambda self: self[1].rows)
    cols = property(lambda self: self[1].cols)


STARS = puzzlink.Codec(
    pids=("stars",), body=(puzzlink.count_part("star count", 1, lambda rows, cols: cols // 4 or 1), puzzlink.ROOMS),
    read=lambda parts: (parts["star count"], Boxed(((None,) * parts.cols,) * parts.rows, rooms=parts["rooms"])),
    write=lambda pair: {"star count": pair[0], "rooms": pair[1].rooms})
NUMBERED = puzzlink.Codec(
    pids=("numbered",), body=(puzzlink.ROOMS, puzzlink.room_numbers()),
    read=lambda parts: (parts["room numbers"], parts["rooms"]),
    write=lambda puzzle: {"rooms": puzzle.rooms,
                          "room numbers": [puzzle.grid[r][c] for r, c in map(rooms.top_cell, puzzle.rooms)]})


def test_a_codec_in_parts_reads_and_writes_each_part():
    found = rooms.rooms_from_ids([row.split() for row in IDS])
    k, back = STARS.decode(url("stars", 3, 3, "1/" + puzzlink.encode_borders(rooms.borders(3, 3, found), 3, 3)))
    assert k == 1 and back.rooms == found
    numbers, again = NUMBERED.decode(url("numbered", 3, 3, puzzlink.encode_borders(rooms.borders(3, 3, found), 3, 3) + "2g-10"))
    assert again == found and numbers == (2, None, 16)
    puzzle = Boxed(((2, None, None), (None, None, None), (None, None, 16)), rooms=found)
    body = NUMBERED.encode(puzzle).split("/", 6)[-1]
    assert NUMBERED.decode(url("numbered", 3, 3, body)) == ((2, None, None), found)


@pytest.mark.parametrize("codec, body, col, words", [
    (STARS, "1", 20, "found no '/'"),
    (STARS, "x/00", 20, "is not a number"),
    (STARS, "2/00", 20, "out of range 1..1"),
    (STARS, "1/0", 23, "has 4 characters, found 1"),
    (STARS, "1/0000z", 26, "extra characters after the rooms"),
    (NUMBERED, "000012", 25, "extra characters after the room numbers"),  # one room, two numbers
    (NUMBERED, "vvvv", 24, "describe 0 rooms, the borders draw 9"),
])
def test_codec_parts_errors_point_at_the_column(codec, body, col, words):
    with pytest.raises(ParseError) as caught:
        codec.decode(url(codec.pid, 3, 3, body))
    assert words in caught.value.message and caught.value.column == col


def test_room_numbers_write_as_the_room_number_encoder_does():
    for v, text in ((15, "f"), (16, "-10"), (4095, "+fff"), (4096, "=000"), (12239, "%fcf"),
                    (12240, "*0000"), (77776, "$00000")):
        assert puzzlink.ROOM_NUMBERS.encode([v]) == text
        assert puzzlink.ROOM_NUMBERS.decode(text, 1, None)[0] == [(v, 0)]
    assert puzzlink.ROOM_NUMBERS.encode([None] * 21 + [3]) == "zg3"
    with pytest.raises(UnsupportedGenre):
        puzzlink.ROOM_NUMBERS.encode(["?"])


# -- pzprv3 ---------------------------------------------------------------------------------------
def _read_back(answer: pzprv3.Grids):
    return rooms.RoomPuzzle(((None,) * answer.cols,) * answer.rows, rooms=pzprv3.rooms_of(answer)), None


ROOM_FILE = pzprv3.Codec(
    pids=("boxes",), sections=(*pzprv3.room_sections(), pzprv3.Section("answer", pzprv3.IGNORED, answer=True)),
    read=_read_back,
    write=lambda puzzle, solution: {**pzprv3.room_grids(puzzle.rows, puzzle.cols, puzzle.rooms),
                                    "answer": [["."] * puzzle.cols] * puzzle.rows})


@pytest.fixture
def room_file(monkeypatch):
    monkeypatch.setattr(pzprv3, "codecs", lambda: {"boxes": ("boxed", ROOM_FILE)})


def test_the_room_section_writes_as_pzprjs_and_reads_back(room_file):
    found = rooms.rooms_from_ids([row.split() for row in IDS])
    text = ROOM_FILE.encode(Boxed(((None,) * 3,) * 3, rooms=found))
    assert text.split("\n")[:8] == ["pzprv3", "boxes", "3", "3", "3", "0 0 1 ", "2 0 1 ", "2 2 2 "]
    [loaded] = pzprv3.read(text)
    assert loaded.puzzle.rooms == found


@pytest.mark.parametrize("change, line, col, words", [
    (("3\n0 0 1", "4\n0 0 1"), 5, 1, "the room count says 4, the room grid draws 3"),
    (("3\n0 0 1", "3 3\n0 0 1"), 5, None, "line of one token, found 2"),
    (("3\n0 0 1", "x\n0 0 1"), 5, 1, "'x' is not a room count"),
    (("2 0 1 \n2 2 2", "2 0 \n2 2 2"), 7, None, "row 2 of the room grid has 2 cells"),
])
def test_the_room_section_errors(room_file, change, line, col, words):
    text = ROOM_FILE.encode(Boxed(((None,) * 3,) * 3, rooms=rooms.rooms_from_ids([r.split() for r in IDS])))
    assert change[0] in text
    with pytest.raises(ParseError) as caught:
        pzprv3.read(text.replace(*change), "f.txt")
    assert words in caught.value.message and (caught.value.line, caught.value.column) == (line, col)


# -- puzzlekit and drawing ---------------------------------------------------------------------------
def section(text: str) -> puzzlekit.Section:
    rows = tuple((n, puzzlekit._tokens(t)) for n, t in enumerate(text.split("\n"), 10) if t.strip())
    return puzzlekit.Section("d.txt", 9, "problem", rows)


def test_puzzlekit_room_grids_translate_to_the_genre_text():
    out = puzzlekit.WithRooms(puzzlekit.Tokens({"-": "."}))(section("2 2\n- 3\n- -\na b\na a"))
    assert [(n, [t for t, _ in row]) for n, row in out] == [(11, [".", "3"]), (12, [".", "."]),
                                                           (13, ["a", "b"]), (14, ["a", "a"])]
    alone = puzzlekit.WithRooms(None)(section("2 2 1\n1 2\n1 1"))
    assert [[t for t, _ in row] for _, row in alone] == [["1", "2"], ["1", "1"]]
    dropped = puzzlekit.WithRooms(puzzlekit.Tokens({"-": "-"}, strict=True), drop_clues=True)
    assert [n for n, _ in dropped(section("2 2\n- -\n- -\na b\na a"))] == [13, 14]
    with pytest.raises(ParseError, match="'3' is not a problem cell here: use '-'"):
        dropped(section("2 2\n- 3\n- -\na b\na a"))
    with pytest.raises(ParseError, match="a line after the problem grid"):
        puzzlekit.WithRooms(None)(section("1 2\n1 2\n1 1"))
    with pytest.raises(ParseError, match="has 1 rows after its size line"):
        puzzlekit.WithRooms()(section("2 2\n- 3\n- -\na b"))
    with pytest.raises(ParseError) as caught:
        puzzlekit.WithRooms(puzzlekit.Tokens({"-": "."}, strict=True))(section("1 2\n- 3\na b"))
    assert (caught.value.line, caught.value.column) == (11, 3)


def test_room_borders_are_drawn_between_rooms():
    found = rooms.rooms_from_ids([row.split() for row in IDS])
    lines = render_svg.rooms(Boxed(((None,) * 3,) * 3, rooms=found))
    assert all('class="box"' in line for line in lines)
    # between columns 1|2: rows 0-1 (a|b, a|b), row 2 none; 0|1: row 1 (c|a); rows 0|1: col 0;
    # rows 1|2: cols 1-2 (a/c, b/c)
    assert len(lines) == 4


# -- the puz.link engine ----------------------------------------------------------------------------
NODE = shutil.which("node")


def _engine_rooms(file: str, skip: int) -> tuple[int, list[list[str]]]:
    """The room count and room grid of a pzprv3 file, after ``skip`` lines past the size."""
    lines = file.split("\n")
    rows, at = int(lines[2]), 4 + skip
    return int(lines[at]), [line.split() for line in lines[at + 1:at + 1 + rows]]


@pytest.mark.skipif(NODE is None, reason="node is not installed: the puz.link engine cannot run")
def test_the_engine_reads_and_writes_rooms_as_satgrid_does():
    """Random partitions under three pids: a border body alone, with room numbers after it, and
    after a count. pzpr writes the same URL back, its room grid (pzprv3) is satgrid's, and its
    clues sit at satgrid's top cells."""
    from .helpers import run_pzpr

    rng = random.Random(17)
    cases, urls = [], []
    for _ in range(30):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        found = rooms.random_rooms(rows, cols, rng, max_size=rng.choice([2, 5, 12]))
        numbers = [rng.choice([None, rng.randint(0, 15), rng.randint(16, 300)]) for _ in found]
        grid = [[None] * cols for _ in range(rows)]
        for room, v in zip(found, numbers):
            r, c = rooms.top_cell(room)
            grid[r][c] = v
        puzzle = Boxed(tuple(map(tuple, grid)), rooms=found)
        cases.append((rows, cols, found, numbers))
        urls += [replace(NUMBERED, body=(puzzlink.ROOMS,), pids=("norinori",)).encode(puzzle),
                 replace(NUMBERED, pids=("heyawake",)).encode(puzzle),
                 replace(STARS, pids=("starbattle",)).encode(_Pair((1, puzzle)))]
    reports = run_pzpr(urls)
    for k, (rows, cols, found, numbers) in enumerate(cases):
        for report, sent in zip(reports[3 * k:3 * k + 3], urls[3 * k:3 * k + 3]):
            assert "error" not in report, (sent, report)
            assert report["url"].split("?", 1)[1] == sent.split("?", 1)[1]
            count, ids = _engine_rooms(report["file"], "starbattle" in sent)
            assert count == len(found) and rooms.rooms_from_ids(ids) == found
            assert [[str(v) for v in row] for row in rooms.room_ids(rows, cols, found)] == ids
        clues = reports[3 * k + 1]["clues"]
        expected = [-1] * (rows * cols)
        for room, v in zip(found, numbers):
            r, c = rooms.top_cell(room)
            expected[r * cols + c] = -1 if v is None else v
        assert clues == expected
