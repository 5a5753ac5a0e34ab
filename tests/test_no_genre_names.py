"""Nothing outside a genre's own folder names a genre: the core loops over the registry and calls
the genre's parts (DRAW, STATE, OPTIONS, GUESS, generator hooks). The registry itself (one line
per genre) is the one exception."""
from __future__ import annotations

import builtins
import re
from pathlib import Path

import pytest

from satgrid import api
from satgrid.errors import ParseError
from satgrid.registry import GENRES

PACKAGE = Path(__file__).resolve().parents[1] / "satgrid"
#: The genre names of the issue, matched anywhere in a word ("Slitherlinks"), and "solo" as a word.
NAMES = re.compile(r"sudoku|nurikabe|slitherlink|slither|loopy|\bsolo\b", re.I)
#: Where genres are named by design: their own folders and the registry's literal dict.
OWN = (PACKAGE / "genres", PACKAGE / "registry.py")
#: Files still allowed to name a genre (none).
PENDING: tuple[Path, ...] = ()


def registry_names() -> re.Pattern[str]:
    """Every registered genre's name and alias, each as a whole word, but for an alias that is a
    Python builtin (``range``), which code cannot avoid."""
    from satgrid import registry

    names = set(GENRES)
    for genre in GENRES.values():
        names.update(genre.part("ALIASES", ()) or ())
    names.update(getattr(registry, "ALIASES", {}))
    names -= set(dir(builtins)) - set(GENRES)
    return re.compile("|".join(rf"\b{re.escape(n)}\b" for n in sorted(names)), re.I)


def core_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if not any(p == d or d in p.parents for d in (*OWN, *PENDING)))


def test_the_core_names_no_genre() -> None:
    files = core_files()
    assert PACKAGE / "cli.py" in files and PACKAGE / "render_svg.py" in files
    assert PACKAGE / "formats" / "puzzlink.py" in files and PACKAGE / "model.py" in files
    registered = registry_names()
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern in (NAMES, registered):
                match = pattern.search(line)
                if match:
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {match.group()!r}")
                    break
    assert not found, "genre names outside satgrid/genres/:\n" + "\n".join(found)


def test_the_scan_sees_a_genre_name() -> None:
    for text in ("# Sudoku givens", "a SLITHERLINK", "Solo IDs", "loopy", "nurikabe's wall"):
        assert NAMES.search(text), text
    for text in ("solos", "console", "a solution"):
        assert not NAMES.search(text), text


def test_a_headerless_text_is_the_genre_whose_guess_claims_it(monkeypatch: pytest.MonkeyPatch) -> None:
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    claimed = [name for name, g in GENRES.items() if g.part("GUESS") is not None]
    assert claimed, "some genre recognises its headerless format"
    [puzzle] = api.load_text(line)
    assert puzzle.genre in claimed
    with pytest.raises(ParseError, match="cannot tell the genre: add a first line 'genre: "):
        api.load_text("1 2\n3 4\n")
    other = next(name for name in GENRES if name != puzzle.genre)
    monkeypatch.setattr(GENRES[other].module, "GUESS", lambda record: True, raising=False)
    with pytest.raises(ParseError, match=f"cannot tell the genre .it could be .*{other}"):
        api.load_text(line)
