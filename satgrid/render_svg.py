"""Drawings of puzzles and solutions as SVG (and PNG through the optional cairosvg package).

One panel per solution, side by side: a second solution (when the puzzle has several) is drawn
beside the first, and the cells or edges in which the two differ are highlighted in both; an
audit's redundant clues are marked; a title line under the drawing names the puzzle, its status
and the legend of the marks. Sizes follow the grid (36 px a cell), so drawings are readable as
they come and scale cleanly; every element carries a class (``cell``, ``clue``, ``value``, ``shaded``,
``dot``, ``loop``, ``diff``, ``redundant``, ``box``) that tests and style sheets can select.

* Sudoku: thin cell lines, bold box lines and border; givens bold, solution digits blue.
* Nurikabe: grid, numbers (``?`` as is), shaded cells black, unshaded solution cells dotted.
* Slitherlink: the dot lattice, clues, the loop as thick lines.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable
from xml.sax.saxutils import escape

from .errors import SatgridError
from .files import write_atomic
from .puzzle import is_edge, printable

CELL = 36
MARGIN = 18
CAPTION = 22
TITLE_LINE, TITLE_FONT = 20, 13
GAP = 30
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
INK, BLUE, RED, PALE_RED, YELLOW, GREY = "#111", "#1f5fbf", "#d0312d", "#f7c5c2", "#ffe680", "#9a9a9a"


def svg(puzzle: Any, solution: Any = None, second: Any = None, redundant: Iterable = (),
        captions: tuple[str, ...] | None = None, title: str | None = None) -> str:
    """The SVG document: the puzzle (with ``solution`` filled in), and ``second`` beside it.
    ``captions`` go under the panels; ``title`` (e.g. the puzzle's id and status) goes under the
    whole drawing, followed by the legend of the marks used (redundant clues, differences)."""
    draw = {"sudoku": _sudoku, "nurikabe": _nurikabe, "slitherlink": _slitherlink}.get(puzzle.genre)
    if draw is None:
        raise SatgridError(f"no drawing for genre {puzzle.genre}")
    redundant = {tuple(k) for k in redundant}
    panels = [solution] if second is None else [solution, second]
    diff: set = set()
    if second is not None:
        from .registry import GENRES

        diff = set(GENRES[puzzle.genre].differences(puzzle, solution, second))
    what = "edges" if any(map(is_edge, diff)) else "cells"
    if captions is None and second is not None:
        captions = ("solution 1", f"solution 2 ({len(diff)} {what} differ)")
    title_lines: list[str] = []
    if title is not None:
        title_lines = [title] + (["yellow = redundant clue"] if redundant else []) + (
            [f"red = {what} that differ"] if second is not None else [])
    width = puzzle.cols * CELL + 2 * MARGIN
    panels_height = puzzle.rows * CELL + 2 * MARGIN + (CAPTION if captions else 0)
    height = panels_height + TITLE_LINE * len(title_lines)
    drawn = len(panels) * width + (len(panels) - 1) * GAP
    # the title is never shrunk: a drawing narrower than its longest line is widened, centred
    total = max([drawn, *(int(len(t) * TITLE_FONT * 0.62) + 2 * MARGIN for t in title_lines)])
    left = (total - drawn) // 2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{height}" '
           f'viewBox="0 0 {total} {height}" font-family="{FONT}">',
           f'<rect class="background" width="{total}" height="{height}" fill="#fff"/>']
    for index, panel in enumerate(panels):
        out.append(f'<g class="panel" transform="translate({left + index * (width + GAP) + MARGIN},{MARGIN})">')
        out += draw(puzzle, panel, diff, redundant)
        if captions:
            y = puzzle.rows * CELL + CAPTION - 4
            size = min(13.0, 1.8 * (width - 4) / max(1, len(captions[index])))
            out.append(f'<text class="caption" x="{puzzle.cols * CELL / 2}" y="{y}" font-size="{size:.1f}" '
                       f'text-anchor="middle" fill="{INK}">{escape(printable(captions[index]))}</text>')
        out.append("</g>")
    for index, line in enumerate(title_lines):
        cls = "title" if index == 0 else "legend"
        y = panels_height + TITLE_LINE * index + TITLE_LINE / 2 - 4
        out.append(f'<text class="{cls}" x="{total / 2:g}" y="{y:g}" font-size="{TITLE_FONT}" '
                   f'text-anchor="middle" dominant-baseline="central" fill="{INK}">{escape(printable(line))}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _text(cls: str, r: int, c: int, label: str, colour: str, size: float, weight: str = "normal") -> str:
    x, y = c * CELL + CELL / 2, r * CELL + CELL / 2
    return (f'<text class="{cls}" x="{x:g}" y="{y:g}" font-size="{size:g}" font-weight="{weight}" '
            f'fill="{colour}" text-anchor="middle" dominant-baseline="central">{escape(label)}</text>')


def _rect(cls: str, r: int, c: int, fill: str, stroke: str = "none", inset: float = 0) -> str:
    size = CELL - 2 * inset
    return (f'<rect class="{cls}" x="{c * CELL + inset:g}" y="{r * CELL + inset:g}" width="{size:g}" '
            f'height="{size:g}" fill="{fill}" stroke="{stroke}" stroke-width="1"/>')


def _line(cls: str, x1: float, y1: float, x2: float, y2: float, colour: str, width: float) -> str:
    return (f'<line class="{cls}" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{colour}" '
            f'stroke-width="{width:g}" stroke-linecap="round"/>')


def _cells(puzzle: Any, marks: dict[tuple[int, int], tuple[str, str]]) -> list[str]:
    """One rect per cell; ``marks`` gives a cell an extra class and its fill."""
    out = []
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            extra, fill = marks.get((r, c), ("", "#fff"))
            out.append(_rect(f"cell {extra}".strip(), r, c, fill, GREY))
    return out


def _border(puzzle: Any) -> str:
    return (f'<rect class="border" x="0" y="0" width="{puzzle.cols * CELL}" height="{puzzle.rows * CELL}" '
            f'fill="none" stroke="{INK}" stroke-width="3"/>')


def _marks(cells: dict, diff: set, redundant: set) -> dict[tuple[int, int], tuple[str, str]]:
    """Redundant clue cells yellow, cells that differ between two solutions pale red."""
    marks = {k: ("redundant", YELLOW) for k in cells if k in redundant}
    marks.update({k: ("diff", PALE_RED) for k in diff})
    return marks


def _sudoku(puzzle: Any, solution: Any, diff: set, redundant: set) -> list[str]:
    n, h, w = puzzle.size, puzzle.box_height, puzzle.box_width
    out = _cells(puzzle, _marks(puzzle.clues(), diff, redundant))
    for i in range(1, n):
        if i % w == 0:
            out.append(_line("box", i * CELL, 0, i * CELL, n * CELL, INK, 2.5))
        if i % h == 0:
            out.append(_line("box", 0, i * CELL, n * CELL, i * CELL, INK, 2.5))
    out.append(_border(puzzle))
    size = CELL * (0.6 if n <= 9 or puzzle.symbols else 0.45)

    def label(d: int) -> str:
        return puzzle.symbols[d - 1] if puzzle.symbols else str(d)

    for r in range(n):
        for c in range(n):
            given = puzzle.givens[r][c]
            if given is not None:
                out.append(_text("clue", r, c, label(given), INK, size, "bold"))
            elif solution is not None and solution[r][c]:
                cls, colour = ("value diff", RED) if (r, c) in diff else ("value", BLUE)
                out.append(_text(cls, r, c, label(solution[r][c]), colour, size))
    return out


def _nurikabe(puzzle: Any, solution: Any, diff: set, redundant: set) -> list[str]:
    numbers = puzzle.numbers()
    out = _cells(puzzle, _marks(numbers, diff, redundant))
    if solution is not None:
        for r in range(puzzle.rows):
            for c in range(puzzle.cols):
                if solution[r][c] == "#":
                    colour = "#7a1f1a" if (r, c) in diff else INK
                    out.append(_rect("shaded diff" if (r, c) in diff else "shaded", r, c, colour, "#555"))
                elif (r, c) not in numbers:
                    out.append(f'<circle class="white" cx="{c * CELL + CELL / 2:g}" cy="{r * CELL + CELL / 2:g}" '
                               f'r="2.5" fill="{GREY}"/>')
    out.append(_border(puzzle))
    for (r, c), v in numbers.items():
        label = str(v)
        size = CELL * (0.6 if len(label) < 3 else 0.42)
        out.append(_text("clue", r, c, label, INK, size, "bold"))
    return out


def _slitherlink(puzzle: Any, solution: Any, diff: set, redundant: set) -> list[str]:
    rows, cols = puzzle.rows, puzzle.cols
    out = [_rect("redundant", r, c, YELLOW, inset=3) for r, c in puzzle.clues() if (r, c) in redundant]
    if solution is not None:
        horizontal, vertical = solution
        for i in range(rows + 1):
            for j in range(cols):
                if horizontal[i][j]:
                    cls, colour = ("loop diff", RED) if ("h", i, j) in diff else ("loop", BLUE)
                    out.append(_line(cls, j * CELL, i * CELL, (j + 1) * CELL, i * CELL, colour, 4))
        for i in range(rows):
            for j in range(cols + 1):
                if vertical[i][j]:
                    cls, colour = ("loop diff", RED) if ("v", i, j) in diff else ("loop", BLUE)
                    out.append(_line(cls, j * CELL, i * CELL, j * CELL, (i + 1) * CELL, colour, 4))
    for i in range(rows + 1):
        for j in range(cols + 1):
            out.append(f'<circle class="dot" cx="{j * CELL}" cy="{i * CELL}" r="2.8" fill="{INK}"/>')
    for (r, c), k in puzzle.clues().items():
        out.append(_text("clue", r, c, str(k), INK, CELL * 0.55, "bold"))
    return out


def file_data(text: str, path: str) -> str | bytes:
    """What to write for an SVG document at ``path``: the SVG itself, or for a ``.png`` name its
    conversion by cairosvg (at twice the drawing's size)."""
    if not path.lower().endswith(".png"):
        return text
    try:
        import cairosvg  # type: ignore[import-not-found]

        return cairosvg.svg2png(bytestring=text.encode("utf-8"), scale=2)
    except (ImportError, OSError) as exc:
        raise SatgridError(
            "PNG output needs the optional package cairosvg (and the cairo library): "
            f"pip install 'satgrid[png]', or write .svg ({exc.__class__.__name__}: {exc})"
        ) from None


def write(text: str, path: str) -> None:
    """Write an SVG document to ``path`` (a ``.png`` name converts it: :func:`file_data`),
    atomically."""
    write_atomic(Path(path), file_data(text, path))
