"""The genre layer of the formats: ``satgrid/formats/`` names no genre, finds every codec through
the registry (a genre registered here, with codecs of its own, reads and writes every format
without a line of ``formats/`` knowing it), the puzz.link bodies round-trip, aliases and file
name endings belong to one genre each, and the genre modules import on their own (the format
modules they import do not import the registry back)."""
from __future__ import annotations

import builtins
import dataclasses
import random
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import ClassVar

import pytest

from satgrid import formats, registry
from satgrid.errors import ParseError, UnsupportedGenre
from satgrid.formats import ipuz, puzzlink, pzprv3, tatham
from satgrid.puzzle import Source

ROOT = Path(__file__).resolve().parents[1]
#: The genre names and aliases formats/ once branched on, and every name the registry knows now
#: (but for an alias that is a Python builtin, such as ``range``: code cannot avoid that word).
NAMES = ({"sudoku", "nurikabe", "slitherlink", "slither", "loopy", "solo"} | set(registry.GENRES)
         | {alias for alias in registry.ALIASES if alias not in dir(builtins)})


# -- formats/ names no genre ----------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted((ROOT / "satgrid" / "formats").glob("*.py")) + [ROOT / "satgrid" / "reader.py"],
                         ids=lambda p: p.name)
def test_format_modules_name_no_genre(path):
    text = path.read_text().lower()
    found = {name for name in NAMES if name.lower() in text}
    assert not found, f"{path.name} names {sorted(found)}"


def test_format_modules_do_not_import_the_registry_at_top_level():
    for path in (ROOT / "satgrid" / "formats").glob("*.py"):
        top = [line for line in path.read_text().splitlines() if re.match(r"(from|import) ", line)]
        assert not [line for line in top if "registry" in line or "genres" in line], path.name


@pytest.mark.parametrize("module", [f"satgrid.genres.{name}" for name in registry.GENRES] + ["satgrid.formats"])
def test_each_genre_and_the_formats_import_in_a_fresh_interpreter(module):
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_command_line_starts_in_a_fresh_interpreter():
    done = subprocess.run([sys.executable, "-m", "satgrid", "--help"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0 and "Usage" in done.stdout, done.stderr


# -- a genre the formats have never heard of ------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Rings:
    """A made-up genre's puzzle: circles 1 and 2 (or None) on a grid."""

    grid: tuple[tuple[int | None, ...], ...]
    name: str = ""
    source: Source = Source()
    genre: ClassVar[str] = "ringworld"

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0])


def _rings_from_id(gid: tatham.GameId) -> Rings:
    width, height = int(gid.width), int(gid.height or gid.width)
    cells = tatham.decode_runs(gid.desc, width * height, lambda i, m: gid.error(m, gid.column(5, i)),
                               f"a {width}x{height} grid", separator="_")
    values = [None if v is None else int(v) for v, _ in cells]
    return Rings(tuple(tuple(values[r * width:(r + 1) * width]) for r in range(height)))


def _cells_fit(gid: tatham.GameId) -> bool:
    return tatham.run_cells(gid.desc, digits=False, separator="_") == (
        int(gid.width) * int(gid.height or gid.width), None)


RINGS = SimpleNamespace(
    ALIASES=("rw",),
    SUFFIXES=(".rings",),
    PUZZLINK=puzzlink.Codec(pids=("ringworld", "rings"), body=puzzlink.CIRCLES,
                            read=lambda cells: Rings(cells.values, "", cells.source),
                            write=lambda puzzle: puzzle.grid),
    PZPRV3=pzprv3.Codec(
        pids=("ringworld",),
        sections=(pzprv3.Section("circle grid", pzprv3.clues(1, 2)),
                  pzprv3.Section("answer", pzprv3.EDGES, answer=True)),
        read=lambda g: (Rings(tuple(map(tuple, g["circle grid"])), "", g.source),
                        tuple(map(tuple, g["answer"])) if "answer" in g else None),
        write=lambda p, s: {"circle grid": p.grid,
                            "answer": s if s is not None else [[0] * p.cols for _ in range(p.rows)]}),
    TATHAM=tatham.Codec(
        game="Rings", program="sgt-rings", params=lambda gid: gid.flags == "q" and gid.height is not None,
        fits=_cells_fit, decode=_rings_from_id, signs=lambda gid: gid.flags == "q", marked=True,
        encode=lambda p: f"{p.cols}x{p.rows}q:" + tatham.encode_runs((v for row in p.grid for v in row), "_")),
    IPUZ=ipuz.Codec(kind="http://ipuz.org/rings#1", title="Rings",
                    read=lambda doc: (Rings(tuple(tuple(v or None for v in row) for row in doc.get("puzzle"))), None),
                    write=lambda p, s: {"puzzle": [[v or 0 for v in row] for row in p.grid]}),
)


@pytest.fixture
def rings(monkeypatch):
    """The made-up genre in the registry, for one test."""
    genre = dataclasses.replace(registry.GENRES["nurikabe"], name="ringworld", module=RINGS)
    monkeypatch.setitem(registry.GENRES, "ringworld", genre)
    return genre


GRID = ((1, None, 2), (None, None, 1))


def test_a_new_genre_reads_and_writes_urls_through_its_codec_alone(rings):
    url = puzzlink.encode(Rings(GRID))
    assert url == "https://puzz.link/p?ringworld/3/2/b1"  # 1*9 + 0*3 + 2 = 11, then 0 0 1
    [puzzle] = formats.read(url)
    assert puzzle.grid == GRID and formats.read("rings/3/2/b1")[0].grid == GRID
    assert formats.write(puzzle, "url") == url + "\n"
    with pytest.raises(ParseError, match=r"unknown puzz.link puzzle type 'ringz'; satgrid reads .*ringworld"):
        puzzlink.decode("ringz/3/2/b1")
    with pytest.raises(ParseError, match="a circle past the 4 cells") as info:
        puzzlink.decode("ringworld/2/2/b1")
    assert info.value.column == 16


def test_a_new_genre_reads_and_writes_pzprv3_with_its_answer(rings):
    answer = ((1, 0, 1), (0, 1, 1))
    text = pzprv3.write(Rings(GRID), answer)
    assert text == "pzprv3\nringworld\n2\n3\n1 . 2 \n. . 1 \n1 0 1 \n0 1 1 \n"
    [loaded] = pzprv3.read(text)
    assert loaded.puzzle.grid == GRID and loaded.solution == answer
    [bare] = pzprv3.read("pzprv3\nringworld\n2\n3\n1 . 2 \n. . 1 \n")
    assert bare.solution is None
    with pytest.raises(ParseError, match="clue 3 is out of range 1..2") as info:
        pzprv3.read("pzprv3\nringworld\n2\n3\n1 . 3 \n. . 1 \n")
    assert (info.value.line, info.value.column) == (5, 5)


def test_grids_of_borders_between_cells_read_and_write_as_pzprjs_does(monkeypatch, rings):
    """Borders between cells (shapes (0, -1) and (-1, 0)): a one-column grid has no vertical
    borders, which pzprjs writes as empty lines; the file is pzprjs's own for mashu/1/3/i."""
    borders = dataclasses.replace(RINGS.PZPRV3, pids=("ringborders",), sections=(
        pzprv3.Section("circle grid", pzprv3.clues(1, 2)),
        pzprv3.Section("vertical borders", pzprv3.EDGES, (0, -1), answer=True),
        pzprv3.Section("horizontal borders", pzprv3.EDGES, (-1, 0), answer=True)),
        read=lambda g: (Rings(tuple(map(tuple, g["circle grid"]))),
                        (g["vertical borders"], g["horizontal borders"]) if "vertical borders" in g else None),
        write=lambda p, s: {"circle grid": p.grid, "vertical borders": s[0], "horizontal borders": s[1]})
    monkeypatch.setattr(RINGS, "PZPRV3", borders)
    column, answer = Rings(((2,), (None,), (None,))), ([[], [], []], [[0], [0]])
    text = pzprv3.write(column, answer)
    assert text == "pzprv3\nringborders\n3\n1\n2 \n. \n. \n\n\n\n0 \n0 \n"
    [loaded] = pzprv3.read(text)
    assert loaded.puzzle.grid == column.grid and loaded.solution == answer
    row = Rings(((2, None, None),))
    text = pzprv3.write(row, ([[0, 1]], []))
    assert text == "pzprv3\nringborders\n1\n3\n2 . . \n0 1 \n"
    assert pzprv3.read(text)[0].solution == ([[0, 1]], [])


def test_a_new_genre_takes_part_in_game_id_detection(rings):
    game_id = "3x2q:1a2b1"  # '_' parts two adjacent numbers only
    assert tatham.game_of(game_id, None, "g", 1) == "ringworld"
    puzzle = tatham.decode(game_id)
    assert puzzle.grid == GRID and tatham.encode(puzzle) == game_id
    with pytest.raises(ParseError, match=r"sgt-rings --generate 1 '3x2q#7'"):
        tatham.decode("3x2q#7")
    with pytest.raises(ParseError, match=r"Rings \(ringworld\)"):
        tatham.decode("3x2q:1a2b1", genre="nurikabe")


def test_a_game_without_signs_leaves_the_fallback_to_report_its_errors(monkeypatch, rings):
    """A game whose params and descriptions look like the others' (no sign of its own): an ID
    that fits no grid is still read as the fallback game's (its errors), one that fits several
    names them all."""
    monkeypatch.setattr(RINGS, "TATHAM", dataclasses.replace(RINGS.TATHAM, params=lambda gid: True,
                                                             signs=lambda gid: False, marked=False))
    with pytest.raises(ParseError, match="the description has 2 cells, a 9x9 grid has 81"):
        tatham.decode("3x3:a2")
    with pytest.raises(ParseError, match=r"fits all of Solo \(sudoku\), Loopy \(slitherlink\), (.* )?Rings "
                                         r"\(ringworld\): write Loopy IDs with t0 .*--genre sudoku\|slitherlink\|(.*\|)?ringworld"):
        tatham.decode("1x1:1")
    assert tatham.decode("3x2:1a2b1", genre="ringworld").grid == GRID


def test_a_new_genre_reads_and_writes_its_ipuz_kind(rings):
    text = ipuz.write(Rings(GRID))
    assert '"kind": ["http://ipuz.org/rings#1"]' in text
    [loaded] = formats.read_with_solutions(text, "r.ipuz")
    assert loaded.puzzle.grid == GRID
    with pytest.raises(ParseError, match="not an ipuz .*Rings"):
        ipuz.read('{"kind": ["http://ipuz.org/crossword#1"]}')


def test_a_new_genre_claims_its_file_name_ending(rings):
    assert formats.genre_of_path("dir/puzzle.RINGS") == "ringworld"
    assert formats.genre_of_path("dir.rings/puzzle") is None


def test_a_genre_without_a_codec_has_no_such_format(monkeypatch):
    bare = SimpleNamespace()
    monkeypatch.setitem(registry.GENRES, "nurikabe", dataclasses.replace(registry.GENRES["nurikabe"], module=bare))
    [puzzle] = formats.read("https://puzz.link/p?sudoku/4/4/g1k23k3g")
    assert puzzle.genre == "sudoku"
    with pytest.raises(ParseError, match="unknown puzz.link puzzle type 'nurikabe'"):
        formats.read("nurikabe/5/5/g5k2o1k3g")
    from satgrid.genres.nurikabe import NurikabePuzzle

    nurikabe = NurikabePuzzle(((1, None), (None, None)))
    for target in ("url", "pzprv3", "tatham", "ipuz"):
        with pytest.raises(UnsupportedGenre):
            formats.write(nurikabe, target)


# -- one owner for each alias, pid and ending -----------------------------------------------------
def test_aliases_come_from_the_genres():
    assert registry.ALIASES == registry.aliases_of(registry.GENRES)
    for alias, name in registry.ALIASES.items():
        assert alias in registry.GENRES[name].part("ALIASES") and registry.genre(alias.upper()).name == name


def test_two_genres_cannot_claim_one_alias():
    first = registry.GENRES["nurikabe"]
    claims = dataclasses.replace(first, name="other", module=SimpleNamespace(ALIASES=("shared",)))
    again = dataclasses.replace(first, name="third", module=SimpleNamespace(ALIASES=("Shared",)))
    assert registry.aliases_of({"other": claims}) == {"shared": "other"}
    with pytest.raises(ValueError, match="alias 'Shared' of genre third is already other's"):
        registry.aliases_of({"other": claims, "third": again})
    taken = dataclasses.replace(first, name="fourth", module=SimpleNamespace(ALIASES=("other",)))
    with pytest.raises(ValueError, match="already other's"):
        registry.aliases_of({"other": claims, "fourth": taken})


def test_two_genres_cannot_claim_one_pid_or_ending(monkeypatch, rings):
    nurikabe = registry.GENRES["nurikabe"].part("PUZZLINK")
    thief = SimpleNamespace(PUZZLINK=dataclasses.replace(RINGS.PUZZLINK, pids=("rings2", nurikabe.pid)),
                            SUFFIXES=(".RINGS",), IPUZ=dataclasses.replace(RINGS.IPUZ, kind="http://ipuz.org/rings#2"))
    monkeypatch.setitem(registry.GENRES, "thief", dataclasses.replace(rings, name="thief", module=thief))
    with pytest.raises(ValueError, match="pid 'nurikabe' of genre thief is already nurikabe's"):
        puzzlink.codecs()
    with pytest.raises(ValueError, match="ending '.RINGS' of genre thief is already ringworld's"):
        formats.suffix_genres()
    with pytest.raises(ValueError, match="kind 'http://ipuz.org/rings' of genre thief is already ringworld's"):
        ipuz.codecs()


# -- bodies ---------------------------------------------------------------------------------------
def _fail(index: int, message: str) -> ParseError:
    return ParseError("<body>", 1, message, index + 1)


BODIES = {
    "number": (puzzlink.NUMBERS, lambda rng: rng.choice([None, None, "?", rng.randint(0, 15), rng.randint(16, 255),
                                                        rng.randint(256, 12287)])),
    "4-cell": (puzzlink.FOUR, lambda rng: rng.choice([None, None, None, "?", rng.randint(0, 4)])),
    "circle": (puzzlink.CIRCLES, lambda rng: rng.choice([None, None, 1, 2])),
    # pzprjs's decodeNumber10 and decodeHitori, declared from parameters (puzzlink.numbers)
    "number10": (puzzlink.numbers("number10", base=10, singles=10, wide=(), read_only=(), runs=("a", 26)),
                 lambda rng: rng.choice([None, "?", rng.randint(0, 9)])),
    "base36": (puzzlink.numbers("base36", base=36, wide=(("-", 2, 0),), read_only=(), unknown="%", runs=None,
                                blank="."), lambda rng: rng.choice([None, "?", rng.randint(0, 40), rng.randint(0, 1295)])),
}


@pytest.mark.parametrize("name", BODIES)
def test_bodies_round_trip_random_grids(name):
    body, draw = BODIES[name]
    rng = random.Random(name)
    for _ in range(300):
        n = rng.randint(1, 70)
        density = rng.random()
        cells = [draw(rng) if rng.random() < density else None for _ in range(n)]
        text = body.encode(cells)
        decoded, end = body.decode(text, n, _fail)
        assert [v for v, _ in decoded] == cells and end == len(text), (cells, text)
        # the body stops after its n cells: another body's text may follow
        decoded, end = body.decode(text + "!", n, _fail)
        assert [v for v, _ in decoded] == cells and end == len(text)


@pytest.mark.parametrize("body, cells, text", [
    (puzzlink.NUMBERS, [None] * 20 + [5, "?", 300, None], "z5.+12cg"),
    (puzzlink.FOUR, [0, None, 4, None, None, 1] + [None] * 24 + [3], "5ebzhd"),
    (puzzlink.CIRCLES, [1, 2, None, None, None, 1, 2], "f1i"),
    (puzzlink.CIRCLES, [2, 2, 2], "q"),
    (BODIES["number10"][0], [None] * 27 + [7, "?"], "za7."),
    (BODIES["base36"][0], [None, 35, 36, "?", 1295, 3], ".-0z-10%-zz3"),
])
def test_bodies_write_as_pzprjs_writes(body, cells, text):
    assert body.encode(cells) == text
    assert [v for v, _ in body.decode(text, len(cells), _fail)[0]] == cells


@pytest.mark.parametrize("body, text, n, message", [
    (puzzlink.CIRCLES, "r", 3, "bad character 'r'"),
    (puzzlink.CIRCLES, "1", 2, "a circle past the 2 cells"),
    (puzzlink.NUMBERS, "-1", 3, "'-' must be followed by 2 hex digits"),
    (puzzlink.FOUR, "k", 3, "run of 5 blank cells goes past"),
])
def test_bad_bodies(body, text, n, message):
    with pytest.raises(ParseError, match=message):
        body.decode(text, n, _fail)


@pytest.mark.parametrize("body, value", [(puzzlink.CIRCLES, 3), (puzzlink.FOUR, 5), (puzzlink.NUMBERS, 12288),
                                         (BODIES["number10"][0], 10), (BODIES["base36"][0], 1296)])
def test_bodies_refuse_values_they_cannot_hold(body, value):
    with pytest.raises(UnsupportedGenre):
        body.encode([None, value])
