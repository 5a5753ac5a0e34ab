"""Other programs' formats: puzz.link URLs, pzprv3 files, Tatham game IDs, ipuz and Sudoku text;
the FORMATS.md test vectors, round trips on the shared puzzles, genre detection, bad input with
its column, and the convert / solve --format pzprv3 commands. (tests/test_pzpr.py checks the same
formats against the real puzz.link engine.)"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from satgrid import api, formats
from satgrid.genres.slitherlink.checker import check_slitherlink
from satgrid.cli import main
from satgrid.errors import ParseError, UnsupportedGenre
from satgrid.formats import ipuz, puzzlink, pzprv3, tatham
from satgrid.genres.nurikabe import NurikabePuzzle
from satgrid.genres.slitherlink import SlitherlinkPuzzle
from satgrid.genres.sudoku import SudokuPuzzle
from satgrid.reader import read_text, split_records

from .helpers import shared_file

ROOT = Path(__file__).resolve().parents[1]


def rows(text: str) -> tuple:
    """``".5... / ..2.."`` -> grid tuples (``.`` None, digits ints)."""
    return tuple(tuple(None if ch == "." else int(ch) for ch in row) for row in text.split(" / "))


def digits(text: str, n: int) -> tuple:
    flat = [int(ch) for ch in text.replace(" ", "")]
    return tuple(tuple(flat[r * n:(r + 1) * n]) for r in range(n))


def givens(p) -> tuple:
    return p.grid if p.genre == "nurikabe" else p.givens


def shared_puzzles(genre: str, name: str) -> list:
    return api.load([str(shared_file(genre, name))])


# -- FORMATS.md vectors ---------------------------------------------------------------------------
URL_VECTORS = [
    ("sudoku/4/4/g1k23k3g", "sudoku", ".1.. / ...2 / 3... / ..3."),
    ("nurikabe/5/5/g5k2o1k3g", "nurikabe", ".5... / ..2.. / ..... / ..1.. / ...3."),
    ("slither/5/5/cbcbcddad", "slitherlink", "2..1. / .2..1 / ..2.. / 3..3. / .0..3"),
]


@pytest.mark.parametrize("body, genre, grid", URL_VECTORS)
def test_url_vectors_decode_and_encode_back(body, genre, grid):
    puzzle = puzzlink.decode(body)
    assert puzzle.genre == genre and givens(puzzle) == rows(grid)
    assert puzzlink.encode(puzzle) == "https://puzz.link/p?" + body


def test_url_vectors_solve_to_the_known_solutions():
    [sudoku] = api.load_text("sudoku/4/4/g1k23k3g")
    assert api.solve(sudoku, unique=True).solution == digits("2143 4312 3421 1234", 4)
    [nurikabe] = pzprv3.read("pzprv3/nurikabe/5/5/+ 5 # # # /+ # 2 + # /+ # # # # /+ # 1 # . /# # # 3 . /"
                             .replace("/", "\n"))
    result = api.solve(nurikabe.puzzle, unique=True)
    assert result.status == "unique" and result.solution == nurikabe.solution
    # the Slitherlink answer edges of FORMATS.md: vertical rows then horizontal rows
    vertical = "1 -1 0 -1 -1 1 /1 1 -1 1 -1 1 /1 1 1 0 0 1 /1 1 1 1 1 1 /-1 -1 -1 0 1 1 /"
    horizontal = "1 1 1 1 1 /-1 1 1 -1 -1 /0 -1 1 0 0 /0 0 0 1 0 /1 -1 1 -1 0 /-1 0 -1 0 1 /"
    text = "pzprv3\nslither\n5\n5\n" + "2 . . 1 . /. 2 . . 1 /. . 2 . . /3 . . 3 . /. 0 . . 3 /" + vertical + horizontal
    [slither] = pzprv3.read(text.replace("/", "\n"))
    assert check_slitherlink(slither.puzzle.givens, *slither.solution) == []
    result = api.solve(slither.puzzle, unique=True)
    assert result.status == "unique" and result.solution == slither.solution


def test_first_17_clue_sudoku_as_url_and_line():
    line = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
    [from_line] = api.load_text(line)
    [from_url] = api.load_text("https://puzz.link/p?sudoku/9/9/m1g4o2q5g4g7h8i3j1g9j3h4h2i5g1n8g6i")
    assert from_url.givens == from_line.givens and len(from_url.clues()) == 17
    assert puzzlink.encode(from_line).endswith("sudoku/9/9/m1g4o2q5g4g7h8i3j1g9j3h4h2i5g1n8g6i")
    solution = "693784512487512936125963874932651487568247391741398625319475268856129743274836159"
    assert api.solve(from_url, unique=True).solution == digits(solution, 9)


def test_slither_url_is_the_loopy_id_and_both_round_trip():
    url = puzzlink.decode("slither/7/7/0ck22cdci7c32c7787bhb")
    loopy = tatham.decode("7x7t0de:02g222b3b2e2a2b322b2a2a3a2a1d1b")
    assert url.givens == loopy.givens
    assert tatham.encode(url) == "7x7t0:02g222b3b2e2a2b322b2a2a3a2a1d1b"
    assert puzzlink.encode(loopy) == "https://puzz.link/p?slither/7/7/0ck22cdci7c32c7787bhb"
    assert tatham.decode("5x5t0:a211b2213e2a2a2c20").givens == puzzlink.decode("slither/5/5/g21b221di77cg2a").givens


@pytest.mark.parametrize("game_id, grid, solution", [
    ("3x3:a2e9a5b6a2b3_7a1_4a9_6a2b4_1a7_2b1_7e6_9b2_5a8_1b6a5_9a3_8a7_2b8a6b1a1e4a",
     ".2.....9. / 5..6.2..3 / 7.14.96.2 / ..41.72.. / 17.....69 / ..25.81.. / 6.59.38.7 / 2..8.6..1 / .1.....4.",
     "426381795589672413731459682954167238178234569362598174645913827297846351813725946"),
    ("2x3:5c2e1c4a6_1_6_3a2c6e2c5", "5...2. / ....1. / ..4.61 / 63.2.. / .6.... / .2...5",
     "516423342516254361631254465132123645"),
])
def test_solo_vectors(game_id, grid, solution):
    puzzle = tatham.decode(game_id)
    n = len(grid.split(" / "))
    assert puzzle.givens == rows(grid)
    assert (puzzle.box_height * puzzle.box_width, puzzle.box_height) == (n, int(game_id[0]))
    assert tatham.encode(puzzle) == game_id
    result = api.solve(puzzle, unique=True)
    assert result.status == "unique" and result.solution == digits(solution, n)


# -- URL shapes and writing -----------------------------------------------------------------------
@pytest.mark.parametrize("url", [
    "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g",
    "http://pzv.jp/p.html?nurikabe/5/5/g5k2o1k3g",
    "nurikabe/5/5/g5k2o1k3g",
    "https://puzz.link/p?nurikabe_edit/5/5/g5k2o1k3g",
    "http://puzz.link/p?nurikabe_play/5/5/g5k2o1k3g/",
    "  p?nurikabe/5/5/g5k2o1k3g  ",
])
def test_every_accepted_url_shape_reads_the_same(url):
    [puzzle] = api.load_text(url)
    assert puzzle.grid == rows(URL_VECTORS[1][2])
    assert formats.write(puzzle, "url") == "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g\n"


def test_slitherlink_pid_and_trailing_slash():
    assert puzzlink.decode("slitherlink/5/5/cbcbcddad").givens == rows(URL_VECTORS[2][2])
    # a '?' clue ends the body in '.', so the writer adds the trailing '/'
    question = NurikabePuzzle(((None, None), (None, "?")))
    assert puzzlink.encode(question) == "https://puzz.link/p?nurikabe/2/2/i./"
    assert puzzlink.decode("nurikabe/2/2/i./").grid == question.grid
    assert puzzlink.encode(NurikabePuzzle(((None, "?"), (None, None)))) == "https://puzz.link/p?nurikabe/2/2/g.h"


def test_wide_values_and_long_runs_round_trip():
    n = 19 * 19
    grid = [[None] * 19 for _ in range(19)]
    grid[0][0], grid[0][5], grid[18][18], grid[9][9] = 300, 17, 255, "?"
    puzzle = NurikabePuzzle(tuple(map(tuple, grid)))
    url = puzzlink.encode(puzzle)
    assert "+12c" in url and "-11" in url and "-ff" in url and "z" in url
    assert puzzlink.decode(url).grid == puzzle.grid and n == 361
    sixteen = SudokuPuzzle(tuple(tuple((r * 4 + r // 4 + c) % 16 + 1 if (r + c) % 3 == 0 else None
                                       for c in range(16)) for r in range(16)), 4, 4)
    assert puzzlink.decode(puzzlink.encode(sixteen)).givens == sixteen.givens
    # 4-cell body: a clue in the last cell, clues followed by one and two blanks, 20+ blanks
    slither = SlitherlinkPuzzle(((0, None, 4, None, None, 1) + (None,) * 24 + (3,),))
    assert puzzlink.encode(slither).split("/")[-1] == "5ebzhd"
    assert puzzlink.decode(puzzlink.encode(slither)).givens == slither.givens


def test_sudoku_sizes_puzzlink_cannot_hold():
    twelve = SudokuPuzzle(tuple(tuple(None for _ in range(12)) for _ in range(12)), 3, 4)
    with pytest.raises(UnsupportedGenre, match="12x12"):
        puzzlink.encode(twelve)
    tall = SudokuPuzzle(tuple(tuple(None for _ in range(6)) for _ in range(6)), 3, 2)
    with pytest.raises(UnsupportedGenre, match="3x2 boxes"):
        pzprv3.write(tall)


# -- bad URLs: one line, the column ---------------------------------------------------------------
@pytest.mark.parametrize("url, message, column", [
    ("https://puzz.link/p?sudok/9/9/m1", "unknown puzz.link puzzle type 'sudok'", 21),
    ("tapa/3/3/abc", "unknown puzz.link puzzle type 'tapa'", 1),
    ("https://puzz.link/sudoku/4/4/g1k23k3g", "needs '?'", 1),
    ("nurikabe/5/x/g5k2o1k3g", "number of rows 'x' is not a number", 12),
    ("nurikabe/5/0/g5k2o1k3g", "out of range", 12),
    ("nurikabe/5", "ends before its number of rows", 11),
    ("nurikabe/5/5/g5k2o1k3", "describes 24 cells, a 5x5 grid has 25", 22),
    ("nurikabe/5/5/g5k2o1k3gg", "extra characters after the 25 cells", 23),
    ("nurikabe/5/5/g5k2o1kzg", "run of 20 blank cells goes past", 21),
    ("nurikabe/5/5/g5k2!1k3g", "bad character '!'", 18),
    ("nurikabe/5/5/g-1ak2o1k3g", "number 26 is out of range 1..25", 15),
    ("nurikabe/5/5/g-1", "'-' must be followed by 2 hex digits", 15),
    ("sudoku/4/4/g5k23k3g", "value 5 is out of range 1..4", 13),
    ("sudoku/4/4/11t", "given 1 twice in row 1", 13),
    ("sudoku/5/5/g1k23k3g", "a 5x5 Sudoku", 12),
    ("sudoku/4/4/g.k23k3g", "'?' given", 13),
    ("slither/5/5/cbcbcdda.", "'?' clue", 21),
    ("slither/2/2/5", "describes 2 cells, a 2x2 grid has 4", 14),
])
def test_bad_urls_name_the_problem_and_the_column(url, message, column):
    with pytest.raises(ParseError) as info:
        api.load_text(url, source="u.txt")
    assert message in info.value.message and info.value.column == column
    assert str(info.value).startswith(f"u.txt:1:{column}: ")


def test_bad_url_on_the_command_line_is_one_line_without_traceback():
    out = CliRunner().invoke(main, ["solve", "nurikabe/5/5/g5k2!1k3g"])
    assert out.exit_code == 1 and out.stdout == ""
    assert out.stderr.strip() == "satgrid: error: <argument>:1:18: bad character '!' in the puzzle body"


# -- files of URLs and IDs, genre detection -------------------------------------------------------
def test_a_file_of_urls_and_ids_one_a_line(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("# from a forum thread\nhttps://puzz.link/p?sudoku/4/4/g1k23k3g\n\n"
                    "nurikabe/5/5/g5k2o1k3g\n5x5t0:a211b2213e2a2a2c20\n2x3:5c2e1c4a6_1_6_3a2c6e2c5\n")
    puzzles = api.load([str(path)])
    assert [p.genre for p in puzzles] == ["sudoku", "nurikabe", "slitherlink", "sudoku"]
    assert [p.source.line for p in puzzles] == [2, 4, 5, 6]
    assert all(api.solve(p, unique=True).status == "unique" for p in puzzles)
    path.write_text("sudoku/4/4/g1k23k3g\n.1.. ...2\n")
    with pytest.raises(ParseError, match=r"list.txt:2:1: not a puzz.link URL or a game ID"):
        api.load([str(path)])


def test_genre_given_must_agree_and_ambiguity_names_the_options():
    with pytest.raises(ParseError, match="holds a nurikabe puzzle .* genre asked for is sudoku"):
        api.load_text("nurikabe/5/5/g5k2o1k3g", genre="sudoku")
    with pytest.raises(ParseError, match="holds a slitherlink puzzle"):
        api.load_text("genre: nurikabe\nslither/5/5/cbcbcddad\n")
    assert api.load_text("genre: slitherlink\nslither/5/5/cbcbcddad\n")[0].genre == "slitherlink"
    with pytest.raises(ParseError, match=r"fits (both|all of) Solo \(sudoku\)(,| and) Loopy \(slitherlink\).*--genre"):
        api.load_text("1x1:1")
    assert api.load_text("1x1:1", genre="loopy")[0].givens == ((1,),)
    with pytest.raises(ParseError, match="Solo size 1x1 makes a 1x1 grid"):
        api.load_text("1x1:1", genre="sudoku")
    with pytest.raises(ParseError, match="Solo .* or Loopy .*not nurikabe"):
        api.load_text("3x3t0:a2ag", genre="nurikabe")
    # a Loopy ID written without its t0 is read as Loopy when only Loopy fits (two digits side
    # by side are two Loopy faces, one Range number; a 0 is no Filling given)
    assert api.load_text("3x3:a20a1d")[0].genre == "slitherlink"
    with pytest.raises(ParseError, match=r"fits both Loopy \(slitherlink\) and Filling \(fillomino\)"):
        api.load_text("3x3:a21a1d")
    with pytest.raises(ParseError, match=r"fits all of Loopy \(slitherlink\), Range \(kurodoko\), Filling \(fillomino\)"):
        api.load_text("3x3:a2a1e")


@pytest.mark.parametrize("game_id, message, column, kind", [
    ("3x3#12345", "random-seed ID", 4, ParseError),
    ("3x3dh#12345", "could be Solo or Loopy", 6, ParseError),
    ("10x10t0dh#seed", "only the game can expand it", 10, ParseError),
    ("7x7t1:aaa", "grid type t1 is not the square grid", 4, ParseError),
    ("3x3:a2", "the description has 2 cells, a 9x9 grid has 81", 7, ParseError),
    ("2x2:b2a2f3a4bb", "goes on after the 16 cells", 14, ParseError),
    ("2x2:b2a2f3a4c", "run of 3 blanks goes past the 16 cells", 13, ParseError),
    ("2x2:b5a2f3a4b", "given 5 is out of range 1..4", 6, ParseError),
    ("2x2:b2a2f3a!b", "bad character '!'", 12, ParseError),
    ("3x3t0:a2a1e1", "describes 10 cells, a 3x3 grid has 9", 12, ParseError),
    ("3x3t0:a2", "describes 2 cells, a 3x3 grid has 9", 9, ParseError),
    ("9j:a", "jigsaw Sudoku (9j) is not supported yet", None, UnsupportedGenre),
    ("3x3k:a", "killer Sudoku", None, UnsupportedGenre),
    ("3x3x:a", "X (diagonal) Sudoku", None, UnsupportedGenre),
])
def test_bad_game_ids(game_id, message, column, kind):
    with pytest.raises(kind) as info:
        api.load_text(game_id, source="g")
    assert message in str(info.value)
    if kind is ParseError:
        assert info.value.column == column and info.value.line == 1


def test_seed_ids_say_only_the_game_can_expand_them():
    with pytest.raises(ParseError, match=r"only the game can expand it .*sgt-solo --generate 1 '3x3dh#12345'"):
        api.load_text("3x3dh#12345", genre="sudoku")
    with pytest.raises(ParseError, match=r"sgt-loopy --generate 1 '10x10t0dh#seed'"):
        api.load_text("10x10t0dh#seed")


def test_shared_solo_ids_read_like_their_grids_and_write_back():
    source, text = read_text(str(shared_file("sudoku", "tatham.txt")))
    records = split_records(source, text, {"sudoku"}, None)
    grids = api.load([source])
    assert len(records) == len(grids) == 18
    for record, grid in zip(records, grids):
        from_id = tatham.decode(record.meta["tatham"])
        assert from_id.givens == grid.givens, record.name
        assert (from_id.box_height, from_id.box_width) == (grid.box_height, grid.box_width), record.name
        assert tatham.encode(from_id).split(":")[1] == record.meta["tatham"].split(":")[1]


@pytest.mark.skipif(not Path("/usr/games/sgt-solo").exists() or not Path("/usr/games/sgt-loopy").exists(),
                    reason="sgt-puzzles (sgt-solo, sgt-loopy) not installed")
def test_ids_the_games_generate_round_trip_and_solve_uniquely():
    ids = []
    for program, params in (("sgt-solo", "2x3"), ("sgt-solo", "3x4"), ("sgt-solo", "3x2"),
                            ("sgt-solo", "4x4"), ("sgt-loopy", "9x6t0dh")):
        out = subprocess.run([f"/usr/games/{program}", "--generate", "2", f"{params}#satgrid"],
                             capture_output=True, text=True, timeout=60, check=True).stdout
        ids += out.split()
    assert len(ids) == 10
    for game_id in ids:
        puzzle = tatham.decode(game_id)
        assert tatham.encode(puzzle).split(":")[1] == game_id.split(":")[1]
        assert api.solve(puzzle, unique=True).status == "unique", game_id
    # 3x4: boxes 3 tall, 4 wide; 3x2: boxes 3 tall, 2 wide (not puzz.link's 6x6 shape)
    shapes = [(p.box_height, p.box_width) for p in map(tatham.decode, ids[:6])]
    assert shapes == [(2, 3), (2, 3), (3, 4), (3, 4), (3, 2), (3, 2)]


# -- pzprv3 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("genre, name", [("sudoku", "tatham.txt"), ("nurikabe", "jwiki.txt"),
                                         ("slitherlink", "tatham.txt")])
def test_pzprv3_round_trips_puzzles_and_solutions(genre, name):
    for puzzle in shared_puzzles(genre, name):
        if genre == "sudoku" and puzzle.size == 6 and (puzzle.box_height, puzzle.box_width) != (2, 3):
            continue
        solution = api.solve(puzzle).solution
        text = pzprv3.write(puzzle, solution)
        [loaded] = pzprv3.read(text)
        assert givens(loaded.puzzle) == givens(puzzle) and loaded.solution == solution
        [bare] = pzprv3.read(pzprv3.write(puzzle))
        assert givens(bare.puzzle) == givens(puzzle) and bare.solution is None
        assert [givens(p) for p in api.load_text(text + text)] == [givens(puzzle)] * 2


def test_pzprv3_sudoku_layout_and_pencil_marks():
    [puzzle] = api.load_text("sudoku/4/4/g1k23k3g")
    text = pzprv3.write(puzzle, api.solve(puzzle).solution)
    assert text.splitlines()[:4] == ["pzprv3", "sudoku", "4", ". 1 . . "]
    assert text.splitlines()[6:8] == [". . 3 . ", "2 . 4 3 "]
    marked = text.replace("2 . 4 3 ", "+ . 4[1,,,] 3 ")
    assert pzprv3.read(marked)[0].solution is None  # not complete: no answer
    assert pzprv3.read(text + 'history:{\n "type": "pzpr"\n}\n')[0].solution is not None


@pytest.mark.parametrize("cut, message", [
    (1, "ends before the puzzle type"),
    (3, "ends before the number of columns"),
    (6, "ends before row 3 of the grid"),
])
def test_truncated_pzprv3_files(cut, message):
    text = "pzprv3\nnurikabe\n5\n5\n. 5 . . . \n. . 2 . . \n. . . . . \n. . 1 . . \n. . . 3 . \n"
    cut_text = "\n".join(text.split("\n")[:cut])
    with pytest.raises(ParseError, match=f"{message} \\(truncated pzprv3 file\\)"):
        api.load_text(cut_text, "t.txt")


@pytest.mark.parametrize("text, message, line, column", [
    ("pzprv3\nnurikabe\n2\n2\n. 5 \n. \n", "row 2 of the grid has 1 cells, expected 2", 6, None),
    ("pzprv3\nnurikabe\n2\n2\n. 3 \n. x \n", "'x' is not a clue", 6, 3),
    ("pzprv3\nnurikabe\n2\n2\n. 5 \n. . \n", "clue 5 is out of range 1..4", 5, 3),
    ("pzprv3\ntasquare\n2\n2\n", "unknown puzzle type 'tasquare'", 2, 1),
    ("pzprv3.7\nnurikabe\n2\n2\n", "unknown pzprv3 version", 1, 1),
    ("pzprv3\nsudoku\n4\n. 1 . . \n. . . 2 \n3 . . . \n. . 3 . \n. . . . \n5 . . . \n. . . . \n. . . . \n",
     "answer 5 is out of range", 9, 1),
    ("pzprv3\nslither\n1\n1\n5 \n", "clue 5 is out of range 0..4", 5, 1),
    ("pzprv3.1\nslither\n1\n1\n2 \n0 \n1 1 \n1 \n", "ends before row 2 of the horizontal edges", 8, None),
])
def test_bad_pzprv3_files(text, message, line, column):
    with pytest.raises(ParseError) as info:
        api.load_text(text, "f.txt")
    assert message in info.value.message
    assert (info.value.line, info.value.column) == (line, column)


# -- ipuz and Sudoku text formats -----------------------------------------------------------------
def test_ipuz_round_trip_with_solution_and_symbols():
    for puzzle in shared_puzzles("sudoku", "tatham.txt"):
        solution = api.solve(puzzle).solution
        try:
            text = ipuz.write(puzzle, solution)
        except UnsupportedGenre:
            assert (puzzle.box_height, puzzle.box_width) == (3, 2)
            continue
        doc = json.loads(text)
        assert doc["kind"] == ["http://ipuz.org/sudoku#1"] and len(doc["puzzle"]) == puzzle.size
        [loaded] = formats.read_with_solutions(text, "x.ipuz")
        assert loaded.puzzle.givens == puzzle.givens and loaded.solution == solution
        if puzzle.size == 16:
            assert doc["charset"] == "123456789ABCDEFG" and isinstance(doc["puzzle"][0][0], (str, int))


def test_ipuz_reads_givens_as_numbers_symbols_and_objects():
    doc = {"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/sudoku#1"], "charset": "ABCD",
           "puzzle": [[0, "B", None, 0], [{"given": "C"}, 0, 0, ""], [0, 0, 0, 4], [0, 0, 0, 0]],
           "title": "tiny"}
    [puzzle] = api.load_text(json.dumps(doc))
    assert puzzle.givens == ((None, 2, None, None), (3, None, None, None), (None, None, None, 4),
                             (None, None, None, None))
    assert puzzle.name == "tiny" and puzzle.symbols == "ABCD"


@pytest.mark.parametrize("doc, message", [
    ('{"kind": ["http://ipuz.org/crossword#1"], "puzzle": []}', "not an ipuz Sudoku"),
    ('{"kind": ["http://ipuz.org/sudoku#1"], "puzzle": [[1, 2], [3, 4]]}', "2x2 grid has no standard box"),
    ('{"kind": ["http://ipuz.org/sudoku#1"], "puzzle": [[1,0,0,0],[0,0,0,0],[0,0,0,0],[1,0,0,0]]}',
     "given 1 twice in column 1"),
    ('{"kind": ["http://ipuz.org/sudoku#1"], "puzzle": [[9,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}',
     "9 is not a value 1..4"),
    ('{"kind": ["http://ipuz.org/sudoku#1"],\n "puzzle": [[1, 2]', "not valid JSON"),
])
def test_bad_ipuz(doc, message):
    with pytest.raises(ParseError, match=message):
        api.load_text(doc, "p.ipuz")


def test_ipuz_variants_are_refused_clearly():
    doc = {"kind": ["http://ipuz.org/sudoku#1"], "puzzle": [[0] * 4] * 4, "cages": [{"cells": [[1, 1]]}]}
    with pytest.raises(UnsupportedGenre, match="killer cages is not supported yet"):
        api.load_text(json.dumps(doc))


def test_sudoku_text_formats_read_alike(tmp_path):
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    sdk = "#AAuthor\n#DA description\n" + "\n".join(line[i:i + 9] for i in range(0, 81, 9)) + "\n"
    ss = "\n".join(
        ("-----------\n" if r in (3, 6) else "") + "|".join(line[r * 9 + b: r * 9 + b + 3] for b in (0, 3, 6))
        for r in range(9)) + "\n"
    drawn = formats.text_of(api.load_text(line)[0])
    zeros = line.replace(".", "0")
    grids = []
    for name, text in (("a.txt", line), ("a.sdk", sdk), ("a.ss", ss), ("d.txt", drawn), ("z.txt", zeros)):
        (tmp_path / name).write_text(text)
        [puzzle] = api.load([str(tmp_path / name)])
        grids.append(puzzle.givens)
    assert len(set(grids)) == 1 and sum(v is not None for row in grids[0] for v in row) == 17


# -- convert and solve --format pzprv3 ------------------------------------------------------------
@pytest.mark.parametrize("target", ["url", "pzprv3", "text", "tatham", "ipuz"])
def test_convert_round_trips_through_every_format(tmp_path, target):
    examples = {"sudoku": "sudoku/9/9/m1g4o2q5g4g7h8i3j1g9j3h4h2i5g1n8g6i", "nurikabe": "nurikabe/5/5/g5k2o1k3g",
                "slitherlink": "slither/7/7/0ck22cdci7c32c7787bhb"}
    for genre, url in examples.items():
        if target == "ipuz" and genre != "sudoku" or target == "tatham" and genre == "nurikabe":
            out = CliRunner().invoke(main, ["convert", url, "--to", target])
            assert out.exit_code == 1 and "satgrid: error:" in out.stderr and "Traceback" not in out.output
            continue
        out = CliRunner().invoke(main, ["convert", url, "--to", target])
        assert out.exit_code == 0, out.output
        path = tmp_path / f"{genre}.{target}"
        path.write_text(out.stdout)
        [back] = api.load([str(path)])
        assert givens(back) == givens(puzzlink.decode(url)) and back.genre == genre


def test_convert_several_puzzles_and_svg_files(tmp_path):
    source = str(shared_file("nurikabe", "jwiki.txt"))
    out = CliRunner().invoke(main, ["convert", source, "--to", "url"])
    assert out.exit_code == 0 and len(out.stdout.splitlines()) == 7
    text = CliRunner().invoke(main, ["convert", source, "--to", "text"]).stdout
    assert [p.grid for p in api.load_text(text)] == [p.grid for p in api.load([source])]
    out = CliRunner().invoke(main, ["convert", source, "--to", "svg", "-o", str(tmp_path / "n.svg")])
    assert out.exit_code == 0 and sorted(p.name for p in tmp_path.iterdir())[:2] == ["n-1.svg", "n-2.svg"]
    out = CliRunner().invoke(main, ["convert", source, "--to", "svg"])
    assert out.exit_code == 1 and "give -o NAME.svg" in out.stderr


def test_solve_format_pzprv3_writes_the_answer():
    out = CliRunner().invoke(main, ["solve", "nurikabe/5/5/g5k2o1k3g", "--format", "pzprv3"])
    assert out.exit_code == 0
    assert out.stdout == "pzprv3\nnurikabe\n5\n5\n+ 5 # # # \n+ # 2 + # \n+ # # # # \n+ # 1 # + \n# # # 3 + \n"
    out = CliRunner().invoke(main, ["convert", "slither/5/5/cbcbcddad", "--to", "pzprv3", "--solution"])
    [loaded] = pzprv3.read(out.stdout)
    assert check_slitherlink(loaded.puzzle.givens, *loaded.solution) == []


def test_real_subprocess_reads_a_url_argument():
    done = subprocess.run([sys.executable, "-m", "satgrid", "solve", "2x3:5c2e1c4a6_1_6_3a2c6e2c5",
                           "--format", "json"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "solved" and result["solution"][0] == [5, 1, 6, 4, 2, 3]
    done = subprocess.run([sys.executable, "-m", "satgrid", "convert", "3x3t0:a2a", "--to", "url"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 1 and done.stderr.startswith("satgrid: error: <argument>:1:10: ")
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_pzprv3_edges_are_ascii_numbers_with_an_optional_minus():
    """An edge is 1 (line), -1 (cross) or 0; int() would also take '1_000' and '+1'."""
    from satgrid.errors import ParseError

    [puzzle] = api.load_text("https://puzz.link/p?slither/5/5/cbcbcddad")
    text = formats.write(puzzle, "pzprv3", api.solve(puzzle).solution)
    lines = text.splitlines()
    edge_line = 4 + 5 + 5  # header, clues, the cell-state grid: the first line of vertical edges
    assert lines[edge_line].split()[0] == "1"
    for bad in ("1_000", "+1", "\u00b2"):
        changed = lines[:edge_line] + [lines[edge_line].replace("1", bad, 1)] + lines[edge_line + 1:]
        with pytest.raises(ParseError, match="is not an edge"):
            api.load_text("\n".join(changed) + "\n")
    crossed = lines[:edge_line] + [lines[edge_line].replace("1", "-1", 1)] + lines[edge_line + 1:]
    [loaded] = formats.read_with_solutions("\n".join(crossed) + "\n")
    horizontal, vertical = loaded.solution
    assert vertical[0][0] == 0
