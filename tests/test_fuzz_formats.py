"""Fuzzing every reader (satgrid's text and block formats, puzz.link URLs, pzprv3 files, Tatham
game IDs, ipuz JSON, the puzzlekit dataset's grid text) through :func:`satgrid.api.load_text`, with two properties:

1. reading any text returns puzzles or raises a :class:`~satgrid.errors.SatgridError` whose
   message is one line; never another exception;
2. every accepted input round-trips through each writer of :data:`satgrid.formats.TARGETS`:
   reading what ``write_all`` wrote gives the same puzzles (genre, size, box shape, clues), and
   the SVG drawing (with the file's answer, when it has one) is well-formed XML. A writer may refuse a puzzle only with UnsupportedGenre and only
   where :func:`may_refuse` says the format cannot hold it; the answers that pzprv3 and ipuz
   files carry round-trip through their own format too.

Inputs: mutations (inserted, deleted and replaced characters and tokens, huge and negative
numbers, unicode digits and line breaks, overlong lines, empty fields, deep JSON nesting) of
valid encodings of random small puzzles in every format (satgrid's JSON result lines included), of the FORMATS.md test vectors and of
the bundled example files; JSON-level changes of ipuz documents; random text.

Budget: SATGRID_FUZZ_SECONDS (default 30) split between the two tests, run in chunks of
examples with fixed seeds SATGRID_FUZZ_SEED, SATGRID_FUZZ_SEED + 1, ... (default 0, ``random``
for a random start), so a CI run is reproducible and a failure names its seed. Longer local runs:
``SATGRID_FUZZ_SECONDS=900 SATGRID_FUZZ_SEED=random pytest tests/test_fuzz_formats.py``.

Inserted numbers have at most a few thousand digits; the megabyte lines of digits that once made
the Tatham game ID pattern quadratic are tested in tests/test_input_limits.py.
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings, strategies as st

from satgrid import api, formats, render_svg
from satgrid.errors import ParseError, SatgridError, UnsupportedGenre
from satgrid.formats import ipuz, puzzlink, pzprv3
from satgrid.genres.nurikabe import NurikabePuzzle
from satgrid.genres.slitherlink import SlitherlinkPuzzle
from satgrid.genres.sudoku import DEFAULT_BOX, IPUZ_KIND, PUZZLINK_BOX, SOLO_SIDES, SudokuPuzzle
from satgrid.registry import GENRES

DATA = Path(api.__file__).resolve().parent / "data"
SECONDS = float(os.environ.get("SATGRID_FUZZ_SECONDS", "30"))
_SEED = os.environ.get("SATGRID_FUZZ_SEED", "0")
BASE_SEED = random.randrange(2**32) if _SEED == "random" else int(_SEED)
CHUNK = 40  # examples a seed


# -- what a round trip keeps ----------------------------------------------------------------------
def essence(puzzle: Any) -> tuple:
    """What every format must keep: genre, size, box shape (Sudoku) and the clue grid."""
    box = (getattr(puzzle, "box_height", None), getattr(puzzle, "box_width", None))
    return puzzle.genre, puzzle.rows, puzzle.cols, box, GENRES[puzzle.genre].puzzle_json(puzzle)


def may_refuse(target: str, puzzle: Any) -> bool:
    """Where a writer may refuse a puzzle (UnsupportedGenre): the format cannot hold it.

    * url, pzprv3: a grid side above 1000 (their readers' limit), a Sudoku of a size or box shape
      puzz.link does not draw (4, 6 with 2x3 boxes, 9, 16, 25); url also a number above 12287
      (its widest number form);
    * tatham: a genre without a Tatham game (no ``TATHAM`` part), a Sudoku outside Solo's sizes;
    * ipuz: every genre but Sudoku, and a Sudoku whose boxes are not the standard ones for its
      size (ipuz has no box-shape field); several puzzles (one a document);
    * a genre without the format's codec, or whose codec's ``refuse`` names the puzzle;
    * text: never.
    """
    if target in ("url", "pzprv3") and max(puzzle.rows, puzzle.cols) > puzzlink.MAX_SIDE:
        return True
    part = {"url": "PUZZLINK", "pzprv3": "PZPRV3"}.get(target)
    codec = GENRES[puzzle.genre].part(part) if part else None
    if part and (codec is None or getattr(codec, "refuse", lambda p: None)(puzzle) is not None):
        return True  # the genre has no codec for the format, or its codec refuses this puzzle
    if puzzle.genre == "sudoku":
        box = (puzzle.box_height, puzzle.box_width)
        return {"url": PUZZLINK_BOX.get(puzzle.size) != box,
                "pzprv3": PUZZLINK_BOX.get(puzzle.size) != box,
                "tatham": puzzle.size not in SOLO_SIDES,
                "ipuz": DEFAULT_BOX.get(puzzle.size) != box}.get(target, False)
    if target == "url" and puzzle.genre == "nurikabe":
        return max([v for v in puzzle.numbers().values() if v != "?"], default=0) > 12287
    return target == "ipuz" or target == "tatham" and GENRES[puzzle.genre].part("TATHAM") is None


def check(text: str, genre: str | None) -> None:
    """Both properties for one input."""
    try:
        puzzles = api.load_text(text, "<fuzz>", genre)
    except SatgridError as exc:
        message = str(exc)
        assert len(message.splitlines()) == 1, f"an error of {len(message.splitlines())} lines: {message!r}"
        return
    assert puzzles, "no puzzle and no error"
    for target in formats.TARGETS:
        try:
            out = formats.write_all(puzzles, target)
        except UnsupportedGenre as exc:
            allowed = len(puzzles) > 1 and target == "ipuz" or any(may_refuse(target, p) for p in puzzles)
            assert allowed, f"{target} refused {puzzles}: {exc}"
            continue
        # a game ID does not name its game: one that several games read needs the genre
        kinds = {p.genre for p in puzzles}
        back = api.load_text(out, f"<{target}>", kinds.pop() if target == "tatham" and len(kinds) == 1 else None)
        assert [essence(p) for p in back] == [essence(p) for p in puzzles], (target, out)
    for puzzle in puzzles:
        drawn(puzzle)
    _check_answers(text, genre)


def drawn(puzzle: Any, solution: Any = None) -> None:
    """The SVG drawing is made and is well-formed XML."""
    ElementTree.fromstring(render_svg.svg(puzzle, solution))


def _check_answers(text: str, genre: str | None) -> None:
    """The answer a pzprv3 or ipuz file holds reads back from what its own writer writes."""
    target = "ipuz" if ipuz.is_json(text) else "pzprv3" if pzprv3.is_pzprv3(text) else None
    if target is None:
        return
    for loaded in formats.read_with_solutions(text, "<fuzz>", genre) or []:
        if loaded.solution is None:
            continue
        drawn(loaded.puzzle, loaded.solution)
        out = formats.write(loaded.puzzle, target, loaded.solution)
        [again] = formats.read_with_solutions(out, f"<{target}>")
        assert again.solution == loaded.solution, (target, out)


#: Characters the mutations insert: the formats' own, line breaks, unicode digits and others.
CHARS = list("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?#:/=+%@*$|{}[],\"'\\~!()"
             " \t\n\r\x0b\x0c") + ["é", "²", "٣", "½", "Ⅻ", "０", "\u2028", "\x85", "\ufeff", "\x00", "🙂", "\u0301"]

# -- valid encodings of random puzzles -------------------------------------------------------------
@st.composite
def sudokus(draw) -> SudokuPuzzle:
    """A Sudoku with givens from a permuted pattern solution (so no given repeats)."""
    h, w = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4), (4, 4), (1, 2), (1, 1)])
                | st.sampled_from([(2, 5), (4, 5), (5, 5), (6, 6), (3, 12)]))
    n = h * w
    perm = draw(st.permutations(range(1, n + 1)))
    keep = draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
    grid = tuple(
        tuple(perm[(w * (r % h) + r // h + c) % n] if keep[r * n + c] else None for c in range(n))
        for r in range(n))
    symbols = None
    kind = draw(st.integers(0, 4))
    if kind == 0:
        symbols = "".join(draw(st.permutations(draw(st.sampled_from(
            ["123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"]))))[:n])
    elif kind == 1 and n <= len(CHARS):  # as an ipuz charset may be
        symbols = "".join(draw(st.lists(st.sampled_from(CHARS), min_size=n, max_size=n, unique=True)))
    return SudokuPuzzle(grid, h, w, symbols=symbols)


@st.composite
def nurikabes(draw) -> NurikabePuzzle:
    rows, cols = draw(st.sampled_from([(1, 1), (1, 5), (4, 1)]) | st.tuples(st.integers(1, 7), st.integers(1, 7))
                      | st.just((70, 70)))
    area = rows * cols
    cell = st.none() | st.none() | st.just("?") | st.integers(1, area)
    grid = tuple(tuple(draw(cell) if area < 100 or draw(st.integers(0, 200)) == 0 else None for _ in range(cols))
                 for _ in range(rows))
    return NurikabePuzzle(grid)


@st.composite
def slitherlinks(draw) -> SlitherlinkPuzzle:
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cell = st.none() | st.integers(0, 4)
    return SlitherlinkPuzzle(tuple(tuple(draw(cell) for _ in range(cols)) for _ in range(rows)))


PUZZLES = sudokus() | nurikabes() | slitherlinks()


@st.composite
def encodings(draw) -> str:
    """One random puzzle (or two, in the block format) in one of the formats that hold it, or in
    one of the reader's other layouts (no header, one Sudoku a line, a genre-name header, JSON
    result lines)."""
    puzzle = draw(PUZZLES)
    layouts = [*formats.TARGETS, "bare", "several", "name-header", "results"]
    layout = draw(st.sampled_from(layouts))
    try:
        if layout == "results":  # satgrid's JSON result lines, as solve/audit/generate print them
            lines = []
            for index, p in enumerate([puzzle, *draw(st.lists(PUZZLES, max_size=2))]):
                g = GENRES[p.genre]
                lines.append(json.dumps({"id": f"p{index}", "genre": g.name, "rows": p.rows, "cols": p.cols,
                                         "status": "unknown", "puzzle": g.puzzle_json(p), **g.puzzle_meta(p)}))
            return "\n".join(lines) + "\n"
        if layout == "several":
            return formats.write_all([puzzle, draw(PUZZLES)], draw(st.sampled_from(["text", "url", "pzprv3"])))
        if layout in ("bare", "name-header"):
            grid = GENRES[puzzle.genre].render(puzzle)
            if puzzle.genre == "sudoku" and draw(st.booleans()):
                grid = "".join(ch for ch in grid if ch not in " |+-\n")
            return grid + "\n" if layout == "bare" else f"{puzzle.genre}\n{grid}\n"
        return formats.write(puzzle, layout)
    except UnsupportedGenre:
        return formats.write(puzzle, "text")


# -- seeds from FORMATS.md and the bundled examples -----------------------------------------------
VECTORS = [
    "https://puzz.link/p?sudoku/4/4/g1k23k3g",
    "nurikabe/5/5/g5k2o1k3g",
    "http://pzv.jp/p.html?slither/5/5/cbcbcddad",
    "https://puzz.link/p?sudoku/9/9/m1g4o2q5g4g7h8i3j1g9j3h4h2i5g1n8g6i",
    "slither/7/7/0ck22cdci7c32c7787bhb",
    "7x7t0de:02g222b3b2e2a2b322b2a2a3a2a1d1b",
    "2x3:5c2e1c4a6_1_6_3a2c6e2c5",
    "5x5t0:a211b2213e2a2a2c20",
    "10x10t0dh#123",
    "pzprv3\nnurikabe\n5\n5\n+ 5 # # # \n+ # 2 + # \n+ # # # # \n+ # 1 # . \n# # # 3 . \n",
    "000000010400000000020000000000050407008000300001090000300400200050100000000806000\n",
    "# Nurikabe: 1 puzzle in puzzlekit-dataset grid text\npuzzle a\nsource: x\nproblem:\n3 3\n1 - 1\n- - -\n"
    "- 3 -\nsolution:\n3 3\n- x -\nx x x\n- - -\nend\n",
    '{"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/sudoku#1"], "charset": "1234",'
    ' "puzzle": [[0, 1, 0, 0], [0, 0, 0, {"given": 2}], ["3", 0, 0, 0], [0, 0, 3, null]],'
    ' "solution": [[2, 1, 4, 3], [4, 3, 1, 2], [3, 4, 2, 1], [1, 2, 3, 4]]}',
]


def _examples() -> list[str]:
    """The bundled example files, and each of their blocks on its own."""
    out = []
    for path in sorted(DATA.glob("*.txt")):
        text = path.read_text()
        out.append(text)
        out += re.findall(r"^puzzle .*?^end$", text, flags=re.S | re.M)
    return out


SEEDS = st.sampled_from(VECTORS + _examples()) | encodings()

# -- mutations ------------------------------------------------------------------------------------
TOKENS = ["puzzle x", "end", "givens:", "solution:", "genre:", "genre: sudoku", "genre: nurikabe",
          "genre: slitherlink", "loopy", "box: 2x3", "box: 0x0", "symbols: ", "symbols: 12-4", "rows: 3",
          "cols: 0", "pzprv3", "pzprv3.1", "sudoku", "nurikabe", "slither", "https://puzz.link/p?", "p?",
          "t0", "t1", "dh", "x", "j", "k", "null", "true", "1.5", "{}", "[]", '"given"', '"kind"', "\n\n",
          "-1", "0", "00", "-0", "1e9", "99999999999999999999", "4096", "12288", "65536", "9" * 40,
          "problem:", "format: puzzlekit", "# Nurikabe: puzzlekit-dataset"]
NUMBERS = ["0", "-1", "-5", "1", "4", "5", "10", "16", "37", "256", "1000", "1001", "4095", "12287", "12288",
           "99999999999999999999", "1" * 400, "²", "٣", "1_000", "+3", " 3", "3.0"]


@st.composite
def mutation(draw, text: str) -> str:
    """One change at a drawn position."""
    op = draw(st.sampled_from(["insert", "delete", "replace", "repeat", "number", "truncate", "field",
                               "line", "case", "nest"]))
    n = len(text)
    i = draw(st.integers(0, n))
    piece = draw(st.sampled_from(CHARS) | st.sampled_from(TOKENS))
    if op == "insert":
        return text[:i] + piece + text[i:]
    if op == "delete":
        return text[:i] + text[i + draw(st.integers(1, 8)):]
    if op == "replace":
        return text[:i] + piece + text[i + 1:]
    if op == "repeat":  # an overlong line or a long run
        j = draw(st.integers(i, min(n, i + 20)))
        return text[:j] + text[i:j] * draw(st.integers(1, 200)) + text[j:]
    if op == "number":
        runs = list(re.finditer(r"\d+", text))
        if not runs:
            return text + draw(st.sampled_from(NUMBERS))
        m = draw(st.sampled_from(runs))
        return text[:m.start()] + draw(st.sampled_from(NUMBERS)) + text[m.end():]
    if op == "truncate":
        return text[:i]
    if op == "field":  # empty a field between two separators
        cuts = [m.start() for m in re.finditer(r"[/:\n,_ ]", text)]
        if len(cuts) < 2:
            return text
        a = draw(st.integers(0, len(cuts) - 2))
        return text[:cuts[a] + 1] + text[cuts[a + 1]:]
    if op == "line":
        lines = text.split("\n")
        k = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "double", "swap", "blank"]))
        if how == "drop":
            del lines[k]
        elif how == "double":
            lines.insert(k, lines[k])
        elif how == "swap" and k + 1 < len(lines):
            lines[k], lines[k + 1] = lines[k + 1], lines[k]
        else:
            lines[k] = ""
        return "\n".join(lines)
    if op == "case":
        return text[:i] + text[i:i + 1].swapcase() + text[i + 1:]
    depth = draw(st.sampled_from([10, 1000, 100_000]))
    return text[:i] + "[" * depth + text[i:]


@st.composite
def mutated(draw, seeds: st.SearchStrategy[str], most: int) -> str:
    text = draw(seeds)
    for _ in range(draw(st.integers(0, most))):
        text = draw(mutation(text))
    return text


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 40) | st.integers() | st.floats() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["given", "value", "x"]), inner,
                                                               max_size=2),
    max_leaves=8)


@st.composite
def ipuz_documents(draw) -> str:
    """An ipuz document of a random Sudoku with a key or a cell changed to any JSON value."""
    puzzle = draw(sudokus().filter(lambda p: DEFAULT_BOX.get(p.size) == (p.box_height, p.box_width)))
    doc = json.loads(ipuz.write(puzzle))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(["puzzle", "solution", "charset", "empty", "boxes", "kind", "title",
                                    "zones", "cell", "row"]))
        rows = doc.get("puzzle") if isinstance(doc.get("puzzle"), list) and doc["puzzle"] else None
        if key == "cell" and rows:
            row = draw(st.sampled_from(rows))
            if isinstance(row, list) and row:
                row[draw(st.integers(0, len(row) - 1))] = draw(JSON_VALUES)
        elif key == "row" and rows:
            rows[draw(st.integers(0, len(rows) - 1))] = draw(JSON_VALUES)
        elif key not in ("cell", "row"):
            doc[key] = draw(JSON_VALUES)
    return json.dumps(doc)


RANDOM_TEXT = st.text(st.sampled_from(CHARS), max_size=300) | st.text(max_size=200)
GENRE = st.sampled_from([None, None, None, None, "sudoku", "nurikabe", "slitherlink", "loopy"])
ANY_INPUT = st.tuples(RANDOM_TEXT | ipuz_documents() | mutated(SEEDS, 5), GENRE)
NEAR_VALID = st.tuples(mutated(SEEDS, 1), st.just(None))


# -- running for a time budget --------------------------------------------------------------------
def fuzz(strategy: st.SearchStrategy, prop: Callable[..., None], seconds: float) -> None:
    """Run ``prop`` on chunks of CHUNK examples, seeds BASE_SEED, BASE_SEED + 1, ..., until
    ``seconds`` have passed (at least one chunk)."""
    stop = time.monotonic() + seconds
    k = BASE_SEED
    while True:
        test = seed(k)(settings(max_examples=CHUNK, deadline=None, database=None,
                                phases=[Phase.generate, Phase.shrink],
                                suppress_health_check=list(HealthCheck))(given(strategy)(prop)))
        try:
            test()
        except BaseException as exc:
            exc.add_note(f"fuzz seed {k} (SATGRID_FUZZ_SEED={k} reproduces it)")
            raise
        k += 1
        if time.monotonic() >= stop:
            return


def _check_pair(pair: tuple[str, str | None]) -> None:
    check(*pair)


def test_readers_raise_only_satgrid_errors_of_one_line():
    """Property 1 (and 2 on what is accepted) on random text and heavy mutations."""
    fuzz(ANY_INPUT, _check_pair, SECONDS / 2)


def test_accepted_inputs_round_trip_through_every_writer():
    """Property 2 (and 1 on what is refused) on valid encodings and light mutations of them."""
    fuzz(NEAR_VALID, _check_pair, SECONDS / 2)


# -- regressions: what the fuzzer found ------------------------------------------------------------
LONG = "9" * 5000  # int() refuses more than 4300 digits
#: (input, the error's message part): each once a ValueError or RecursionError traceback.
FOUND = [
    ("genre: nurikabe\n. 2²\n. .\n", "token '2²' is not a number"),
    ("genre: nurikabe\nrows: ²\n. 2\n", "header says rows: ²"),
    (f"genre: nurikabe\n. {LONG}\n", f"number {LONG} is bigger than the 1x2 grid"),
    ("genre: sudoku\n. ² . .\n. . . .\n. . . .\n. . . .\n", "symbol '²' is not a value 1..4"),
    (f"genre: sudoku\n{LONG} . . .\n. . . 1\n. . . .\n. . . .\n", f"value {LONG} is out of range 1..4"),
    ("genre: slitherlink\n²\n", "'²' is not a clue"),
    ("7x7t0de:02g222b3b2e2a2b322b2a2a²a2a1d1b", "'²' is not a clue"),
    ("2x2:²o", "bad character '²' in a Solo description"),
    (f"2x2:{LONG}o", f"given {LONG} is out of range 1..4"),
    (f"{LONG}x1:a", f"Solo size {LONG}x1 is too big"),
    (f"1x{LONG}t0:a", "the game ID describes 1 cells"),
    ("https://puzz.link/p?sudoku/4/²/g1k23k3g", "number of rows '²' is not a number"),
    (f"sudoku/4/{LONG}/g1k23k3g", f"number of rows {LONG} is out of range 1..1000"),
    ("pzprv3\nnurikabe\n²\n1\n.\n", "number of rows '²' is not a number"),
    ("pzprv3\nnurikabe\n1\n1\n²\n", "'²' is not a clue"),
    (f"pzprv3\nnurikabe\n1\n1\n{LONG}\n", f"clue {LONG} is out of range 1..1"),
    ("pzprv3\nsudoku\n4\n. . . .\n. . . .\n. . . .\n. . . .\n² . . .\n. . . .\n. . . .\n. . . .\n",
     "'²' is not an answer"),
    ('{"kind": ["http://ipuz.org/sudoku#1"], "puzzle": ' + "[" * 100_000, "JSON nested too deeply"),
]


@pytest.mark.parametrize("text, message", FOUND)
def test_unicode_digits_long_numbers_and_deep_json_are_parse_errors(text, message):
    with pytest.raises(ParseError) as caught:
        api.load_text(text, "in.txt")
    assert message in str(caught.value) and len(str(caught.value).splitlines()) == 1


@pytest.mark.parametrize("text", [text for text, _ in FOUND[::3]])
def test_those_inputs_are_one_line_on_the_command_line(tmp_path, text):
    path = tmp_path / "in.txt"
    path.write_text(text)
    run = subprocess.run([sys.executable, "-m", "satgrid", "convert", str(path), "--to", "text"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and run.stdout == "" and "Traceback" not in run.stderr
    assert len(run.stderr.splitlines()) == 1 and run.stderr.startswith(f"satgrid: error: {path}:")


def test_a_sudoku_solo_cannot_hold_is_refused_by_the_tatham_writer(tmp_path):
    """A 1x1 Sudoku (box 1x1) was written as '1x1:a', which no reader takes back."""
    [puzzle] = api.load_text("genre: sudoku\nbox: 1x1\n.\n")
    with pytest.raises(UnsupportedGenre, match="no Solo game ID for a 1x1 Sudoku"):
        formats.write(puzzle, "tatham")
    path = tmp_path / "one.txt"
    path.write_text("genre: sudoku\nbox: 1x1\n.\n")
    run = subprocess.run([sys.executable, "-m", "satgrid", "convert", str(path), "--to", "tatham"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and run.stdout == "" and "Traceback" not in run.stderr
    assert run.stderr.splitlines() == [f"satgrid: error: {path}:3: no Solo game ID for a 1x1 Sudoku "
                                       "(Solo grids are 2..36 wide)"]


def test_a_seed_id_with_a_control_character_is_a_one_line_error():
    """The seed was put into the suggested command as it was: a form feed broke the line."""
    with pytest.raises(ParseError) as caught:
        api.load_text("6#f\x0cH@m")  # Solo's or Range's params: the error says it could be either
    assert len(str(caught.value).splitlines()) == 1
    with pytest.raises(ParseError) as caught:
        api.load_text("6#f\x0cH@m", genre="sudoku")
    assert len(str(caught.value).splitlines()) == 1
    assert "sgt-solo --generate 1 '6#f\\x0cH@m' prints its game ID" in str(caught.value)


GRID4 = "{} . . .\n. . . .\n. . . .\n. . . .\n"


@pytest.mark.parametrize("symbols, message", [
    ("12-4", "holds '-', which a grid reads as layout"),  # '-' read as a rule line: a row lost a cell
    ("12.4", "holds '.'"),  # '.' read as a blank: written back, the given vanished
    ("1 34", "holds ' '"),
    ("12#4", "holds '#'"),
    ("a:bc", "holds ':'"),  # a first row "a : . ." was read as a header "a"
    ("11234", "has 4 different symbols in 5, the grid needs 4"),  # was accepted: 5 symbols for 4 values
])
def test_symbol_sets_a_grid_cannot_hold_are_refused(symbols, message):
    with pytest.raises(ParseError, match=re.escape(message)):
        api.load_text(f"genre: sudoku\nsymbols: {symbols}\n" + GRID4.format("1"))


def test_an_ipuz_charset_the_text_format_cannot_hold_is_written_as_digits():
    """ipuz charset '1.34' was written as 'symbols: 1.34', which read its '.' given as a blank."""
    doc = {"kind": [IPUZ_KIND], "charset": "1.34", "puzzle": [[".", 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}
    [puzzle] = api.load_text(json.dumps(doc))
    assert puzzle.givens[0][0] == 2 and puzzle.symbols == "1.34"
    text = formats.write(puzzle, "text")
    assert "symbols" not in text and api.load_text(text)[0].givens == puzzle.givens


def test_a_box_with_negative_sides_is_refused():
    """'box: -2x-2' fitted a 4x4 grid (-2 * -2 = 4) and was taken."""
    with pytest.raises(ParseError, match=r"box '-2x-2' is not HxW"):
        api.load_text("genre: sudoku\nbox: -2x-2\n" + GRID4.format("1"))


def test_symbols_match_without_case_symbol_by_symbol():
    """'ß'.upper() is 'SS': matching in the upper-cased set shifted every later symbol by one."""
    [puzzle] = api.load_text("genre: sudoku\nsymbols: ßabc\n" + GRID4.format("A"))
    assert puzzle.givens[0][0] == 2


def test_a_pzprv3_sudoku_with_a_repeated_given_is_refused_as_the_other_formats_refuse_it():
    """It was read, then written as a URL that the URL reader refused."""
    text = "pzprv3\nsudoku\n4\n1 . 1 . \n. . . . \n. . . . \n. . . . \n"
    with pytest.raises(ParseError, match=re.escape("<fuzz>:4:5: given 1 twice in row 1")):
        api.load_text(text, "<fuzz>")


def test_a_nurikabe_number_zero_written_00_is_refused():
    """'00' was read as an island of size 0, and the URL written for it was refused."""
    with pytest.raises(ParseError, match=re.escape("in.txt:2:3: number 00 is no island size")):
        api.load_text("genre: nurikabe\n1 00\n", "in.txt")


def test_an_ipuz_charset_of_control_characters_is_refused():
    """A NUL symbol was drawn into the SVG, which no XML reader then opens."""
    doc = {"kind": [IPUZ_KIND], "charset": "\x00\x01ab", "puzzle": [[0] * 4] * 4}
    with pytest.raises(ParseError, match="holds a character that cannot be printed"):
        api.load_text(json.dumps(doc))


def test_an_ipuz_title_with_a_lone_surrogate_or_a_line_break_prints(tmp_path):
    """A title '\\ud800' (legal in JSON) ended the text report in a UnicodeEncodeError traceback."""
    path = tmp_path / "t.ipuz"
    path.write_text(json.dumps({"kind": [IPUZ_KIND], "title": "a\ud800\nb", "puzzle": [[1, 0, 0, 0]] + [[0] * 4] * 3}))
    assert api.load([str(path)])[0].name == "a\ufffd\ufffdb"
    run = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(path)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0 and "Traceback" not in run.stderr and "a\ufffd\ufffdb" in run.stdout


def test_grids_wider_than_the_url_and_pzprv3_readers_take_are_refused_by_their_writers():
    """A Slitherlink 1 x 1614 was written as a URL that the URL reader refused."""
    [puzzle] = api.load_text("genre: slitherlink\n" + "." * 1001 + "\n")
    for target in ("url", "pzprv3"):
        with pytest.raises(UnsupportedGenre, match="read up to 1000 a side"):
            formats.write(puzzle, target)


def test_a_36x36_sudoku_with_a_given_36_is_written_as_text_and_ipuz():
    """The default symbols stopped at Z (35): writing a given 36 was an IndexError."""
    rows = [" ".join(["36"] + ["."] * 35)] + [" ".join(["."] * 36)] * 35
    [puzzle] = api.load_text("genre: sudoku\n" + "\n".join(rows) + "\n")
    for target in ("text", "ipuz"):
        [back] = api.load_text(formats.write(puzzle, target))
        assert back.givens == puzzle.givens
