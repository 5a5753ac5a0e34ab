"""Drawings of puzzles and solutions as SVG (and PNG through the optional cairosvg package).

One panel per solution, side by side: a second solution (when the puzzle has several) is drawn
beside the first, and the cells or edges in which the two differ are highlighted in both; an
audit's redundant clues are marked; a title line under the drawing names the puzzle, its status
and the legend of the marks. Sizes follow the grid (36 px a cell), so drawings are readable as
they come and scale cleanly; every element carries a class (``cell``, ``clue``, ``value``, ``shaded``,
``white``, ``dot``, ``loop``, ``circle``, ``diff``, ``redundant``, ``box``) that tests and style
sheets can select.

A genre draws a panel with its record's ``DRAW(puzzle, solution, marks) -> list[str]`` (the
solution may be None: the puzzle alone), a short composition of the generic parts below, each a
list of SVG elements in panel coordinates (cell ``(r, c)`` spans ``c * CELL .. (c + 1) * CELL``
across): :func:`cells` (the cell grid, with redundant clues and differing cells highlighted),
:func:`room_borders` (bold lines between rooms or boxes; :func:`rooms` those of a puzzle with
rooms), :func:`border`, :func:`shaded`, :func:`dotted` (unshaded solution cells), :func:`labels`
(digits and numbers: :func:`givens` bold, :func:`values` blue), :func:`lattice` (the dots of the
dot lattice), :func:`edge_lines` (a loop on the dot lattice), :func:`centre_lines` (lines
through cell centres), :func:`circles` (white and black circles, e.g. pearls), :func:`stars`
(five-pointed stars), :func:`note` (a given of the whole puzzle above the grid) and
:func:`highlights` (inset squares behind clues, for drawings without cell rectangles).
:func:`clue_cells` (grey clue cells) and :func:`arrow_numbers` (numbers with arrows) draw arrow
clues.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable, Mapping
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
        captions: tuple[str, ...] | None = None, title: str | None = None,
        undecided: Iterable = (), overlay: Iterable[str] = (), legend: Iterable[str] = ()) -> str:
    """The SVG document: the puzzle (with ``solution`` filled in), and ``second`` beside it.
    ``captions`` go under the panels; ``title`` (e.g. the puzzle's id and status) goes under the
    whole drawing, followed by the legend of the marks used (redundant clues, differences,
    undecided parts, and ``legend``). ``undecided`` cells or edges (an ambiguity report's) are
    drawn over every panel (:func:`undecided_marks`), and so is ``overlay``: elements such as an
    explanation's facts."""
    overlay = list(overlay)
    from .registry import genre as genre_named  # the registry imports the genres, which import this

    g = genre_named(puzzle.genre)
    draw = g.part("DRAW")
    if draw is None:
        raise SatgridError(f"no drawing for genre {g.name}: its record declares no DRAW")
    redundant = {tuple(k) for k in redundant}
    panels = [solution] if second is None else [solution, second]
    diff: set = set()
    if second is not None:
        diff = set(g.differences(puzzle, solution, second))
    marks = Marks(frozenset(diff), frozenset(redundant))
    what = "edges" if any(map(is_edge, diff)) else "links" if any(map(_is_link, diff)) else "cells"
    open_parts = [tuple(k) for k in undecided]
    if captions is None and second is not None:
        captions = ("solution 1", f"solution 2 ({len(diff)} {what} differ)")
    title_lines: list[str] = []
    if title is not None:
        title_lines = [title] + (["yellow = redundant clue"] if redundant else []) + (
            [f"red = {what} that differ"] if second is not None else []) + (
            ["dashed = undecided edges" if all(map(is_edge, open_parts)) else "hatched = undecided cells"]
            if open_parts else []) + list(legend)
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
    if open_parts:
        out.append(HATCH)
    for index, panel in enumerate(panels):
        out.append(f'<g class="panel" transform="translate({left + index * (width + GAP) + MARGIN},{MARGIN})">')
        out += draw(puzzle, panel, marks)
        out += undecided_marks(open_parts)
        out += overlay
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

Cell = tuple[int, int]
EdgeKey = tuple[str, int, int]


@dataclass(frozen=True)
class Marks:
    """What a panel highlights: ``diff``, the keys (cells, edges, links) in which two solutions
    differ (the genre's ``differences``), and ``redundant``, the clue keys an audit found
    redundant."""

    diff: frozenset = frozenset()
    redundant: frozenset = frozenset()


#: The pattern of :func:`undecided_marks`' hatching (grey diagonal strokes), defined once.
HATCH = (f'<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
         f'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="{GREY}" '
         f'stroke-width="2"/></pattern></defs>')


def undecided_marks(parts: Iterable[tuple]) -> list[str]:
    """Cells or edges that an ambiguity report leaves undecided (class ``undecided``): a cell
    hatched (grey diagonal strokes over what the panel drew), an edge a dashed grey line along
    the lattice (over the loop's colour, which shows between the dashes)."""
    out = []
    for key in parts:
        if is_edge(key):
            x1, y1, x2, y2 = _edge_xy(key)
            out.append(f'<line class="undecided" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                       f'stroke="{GREY}" stroke-width="2" stroke-dasharray="4,4"/>')
        else:
            r, c = key
            out.append(_rect("undecided", r, c, "url(#hatch)"))
    return out


# -- generic parts: each returns SVG elements in panel coordinates --------------------------------
def _is_link(key: tuple) -> bool:
    """Whether a part key is a link ``(p, q)`` between two cells (:func:`centre_lines`)."""
    return len(key) == 2 and all(isinstance(p, tuple) for p in key)


def _centre(r: int, c: int) -> tuple[float, float]:
    return c * CELL + CELL / 2, r * CELL + CELL / 2


def _text(cls: str, r: int, c: int, label: str, colour: str, size: float, weight: str = "normal") -> str:
    x, y = _centre(r, c)
    return (f'<text class="{cls}" x="{x:g}" y="{y:g}" font-size="{size:g}" font-weight="{weight}" '
            f'fill="{colour}" text-anchor="middle" dominant-baseline="central">{escape(label)}</text>')


def _rect(cls: str, r: int, c: int, fill: str, stroke: str = "none", inset: float = 0) -> str:
    size = CELL - 2 * inset
    return (f'<rect class="{cls}" x="{c * CELL + inset:g}" y="{r * CELL + inset:g}" width="{size:g}" '
            f'height="{size:g}" fill="{fill}" stroke="{stroke}" stroke-width="1"/>')


def _line(cls: str, x1: float, y1: float, x2: float, y2: float, colour: str, width: float) -> str:
    return (f'<line class="{cls}" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{colour}" '
            f'stroke-width="{width:g}" stroke-linecap="round"/>')


def cells(puzzle: Any, marks: Marks, clues: Iterable[Cell] = ()) -> list[str]:
    """The cell grid: one thin-lined rect per cell, the cells of ``clues`` an audit found
    redundant yellow, cells in which two solutions differ pale red."""
    fills = {k: ("redundant", YELLOW) for k in clues if k in marks.redundant}
    fills.update({k: ("diff", PALE_RED) for k in marks.diff})
    out = []
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            extra, fill = fills.get((r, c), ("", "#fff"))
            out.append(_rect(f"cell {extra}".strip(), r, c, fill, GREY))
    return out


def border(puzzle: Any) -> list[str]:
    """The bold outline of the grid."""
    return [f'<rect class="border" x="0" y="0" width="{puzzle.cols * CELL}" height="{puzzle.rows * CELL}" '
            f'fill="none" stroke="{INK}" stroke-width="3"/>']


def room_borders(puzzle: Any, room: Callable[[int, int], Hashable]) -> list[str]:
    """Bold lines (class ``box``) between side-neighbouring cells of different rooms (``room(r, c)``
    names a cell's room: a box, a region), each maximal straight run one line."""
    rows, cols = puzzle.rows, puzzle.cols
    out = []

    def runs(length: int, wall: Callable[[int], bool]) -> Iterable[tuple[int, int]]:
        start = None
        for k in range(length + 1):
            if k < length and wall(k):
                start = k if start is None else start
            elif start is not None:
                yield start, k
                start = None

    for j in range(1, cols):  # vertical lines, between columns j - 1 and j
        for a, b in runs(rows, lambda r: room(r, j - 1) != room(r, j)):
            out.append(_line("box", j * CELL, a * CELL, j * CELL, b * CELL, INK, 2.5))
    for i in range(1, rows):  # horizontal lines, between rows i - 1 and i
        for a, b in runs(cols, lambda c: room(i - 1, c) != room(i, c)):
            out.append(_line("box", a * CELL, i * CELL, b * CELL, i * CELL, INK, 2.5))
    return out


def rooms(puzzle: Any) -> list[str]:
    """The bold borders between the rooms of a puzzle with ``room_ids`` (a
    :class:`satgrid.rooms.RoomPuzzle`): :func:`room_borders` of its rooms."""
    ids = puzzle.room_ids
    return room_borders(puzzle, lambda r, c: ids[r][c])


def shaded(cells: Iterable[Cell], marks: Marks, fill: str = INK) -> list[str]:
    """Shaded cells, black or ``fill`` (grey, :data:`GREY`, where bold room borders must show
    on them), dark red where two solutions differ."""
    return [_rect("shaded diff", r, c, "#7a1f1a", "#555") if (r, c) in marks.diff else
            _rect("shaded", r, c, fill, "#555") for r, c in cells]


def dotted(cells: Iterable[Cell]) -> list[str]:
    """A small grey dot (class ``white``) in each of ``cells``: unshaded cells of a solution."""
    return [f'<circle class="white" cx="{c * CELL + CELL / 2:g}" cy="{r * CELL + CELL / 2:g}" '
            f'r="2.5" fill="{GREY}"/>' for r, c in cells]


def labels(items: Mapping[Cell, str], cls: str, colour: str = INK, weight: str = "bold",
           size: float | None = None, marks: Marks | None = None) -> list[str]:
    """Text centred in cells: ``items`` maps a cell to its label. ``size`` defaults to 0.6 of a
    cell for up to two characters, 0.42 beyond; with ``marks`` a label in a differing cell turns
    red (class ``diff``)."""
    out = []
    for (r, c), label in items.items():
        height = size if size is not None else CELL * (0.6 if len(label) < 3 else 0.42)
        if marks is not None and (r, c) in marks.diff:
            out.append(_text(f"{cls} diff", r, c, label, RED, height, weight))
        else:
            out.append(_text(cls, r, c, label, colour, height, weight))
    return out


def givens(items: Mapping[Cell, str], size: float | None = None) -> list[str]:
    """The puzzle's numbers or digits (class ``clue``): bold, black."""
    return labels(items, "clue", INK, "bold", size)


def values(items: Mapping[Cell, str], marks: Marks, size: float | None = None) -> list[str]:
    """A solution's numbers or digits (class ``value``): blue, red where two solutions differ."""
    return labels(items, "value", BLUE, "normal", size, marks)


def lattice(puzzle: Any) -> list[str]:
    """The dots of the dot lattice (class ``dot``), ``(rows + 1) x (cols + 1)``."""
    return [f'<circle class="dot" cx="{j * CELL}" cy="{i * CELL}" r="2.8" fill="{INK}"/>'
            for i in range(puzzle.rows + 1) for j in range(puzzle.cols + 1)]


def edge_lines(edges: Iterable[EdgeKey], marks: Marks) -> list[str]:
    """Thick lines (class ``loop``) on the dot lattice, ``("h", i, j)`` from dot (i, j) to
    (i, j + 1) and ``("v", i, j)`` from dot (i, j) to (i + 1, j); red where two solutions differ."""
    out = []
    for key in edges:
        cls, colour = ("loop diff", RED) if key in marks.diff else ("loop", BLUE)
        out.append(_line(cls, *_edge_xy(key), colour, 4))
    return out


def _edge_xy(key: EdgeKey) -> tuple[int, int, int, int]:
    """The panel coordinates of an edge's two dots (:func:`edge_lines` says which)."""
    kind, i, j = key
    x2, y2 = ((j + 1), i) if kind == "h" else (j, i + 1)
    return j * CELL, i * CELL, x2 * CELL, y2 * CELL


def centre_lines(links: Iterable[tuple[Cell, Cell]], marks: Marks) -> list[str]:
    """Thick lines (class ``loop``) through cell centres, one per link ``(p, q)`` of two cells
    (a line or loop through cells); red where two solutions differ (the link ``(p, q)`` or
    ``(q, p)`` in ``marks.diff``)."""
    out = []
    for p, q in links:
        differs = (p, q) in marks.diff or (q, p) in marks.diff
        cls, colour = ("loop diff", RED) if differs else ("loop", BLUE)
        out.append(_line(cls, *_centre(*p), *_centre(*q), colour, 4))
    return out


def circles(items: Mapping[Cell, str], cls: str = "clue") -> list[str]:
    """A circle in each cell of ``items``: ``"white"`` (outlined) or ``"black"`` (filled), with
    the classes ``cls``, ``circle`` and ``white-circle`` or ``black-circle`` (e.g. pearls)."""
    out = []
    for (r, c), kind in items.items():
        if kind not in ("white", "black"):
            raise ValueError(f"a circle is white or black, not {kind!r}")
        x, y = _centre(r, c)
        fill = INK if kind == "black" else "#fff"
        out.append(f'<circle class="{cls} circle {kind}-circle" cx="{x:g}" cy="{y:g}" r="{CELL * 0.3:g}" '
                   f'fill="{fill}" stroke="{INK}" stroke-width="2"/>')
    return out


def stars(cells: Iterable[Cell], marks: Marks) -> list[str]:
    """A filled five-pointed star (class ``star``) in each of ``cells``: ten points alternating
    between an outer radius of 0.4 cell and an inner one of 0.382 of it (the regular star's
    ratio), black, red where two solutions differ (class ``star diff``)."""
    outer = CELL * 0.4
    corners = [((outer if i % 2 == 0 else outer * 0.382) * math.cos(math.radians(-90 + 36 * i)),
                (outer if i % 2 == 0 else outer * 0.382) * math.sin(math.radians(-90 + 36 * i)))
               for i in range(10)]
    out = []
    for r, c in cells:
        x, y = _centre(r, c)
        cls, colour = ("star diff", RED) if (r, c) in marks.diff else ("star", INK)
        points = " ".join(f"{x + dx:.1f},{y + dy + CELL * 0.03:.1f}" for dx, dy in corners)
        out.append(f'<polygon class="{cls}" points="{points}" fill="{colour}"/>')
    return out


def note(puzzle: Any, label: str) -> list[str]:
    """A short note (classes ``clue note``) in the margin above the grid, flush with its right
    edge: a given that belongs to the whole puzzle (a count per row, column and room)."""
    return [f'<text class="clue note" x="{puzzle.cols * CELL}" y="{-MARGIN / 2:g}" font-size="{MARGIN * 0.72:g}" '
            f'font-weight="bold" fill="{INK}" text-anchor="end" dominant-baseline="central">{escape(label)}</text>']


def highlights(clues: Iterable[Cell], marks: Marks) -> list[str]:
    """A yellow inset square (class ``redundant``) behind each of ``clues`` an audit found
    redundant: the mark for drawings without cell rectangles (:func:`cells` marks its own)."""
    return [_rect("redundant", r, c, YELLOW, inset=3) for r, c in clues if (r, c) in marks.redundant]


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


def clue_cells(cells: Iterable[Cell]) -> list[str]:
    """A pale grey fill (class ``clue-cell``) in each of ``cells``: cells that hold a clue and take
    no part in the solution (arrow cells)."""
    return [_rect("clue-cell", r, c, "#e6e6e6", GREY) for r, c in cells]


#: Arrow heads of :func:`arrow_numbers`: direction -> (dx, dy) of the arrow's pointing end.
_ARROW_STEPS = {"n": (0, -1), "s": (0, 1), "e": (1, 0), "w": (-1, 0)}


def arrow_numbers(items: Mapping[Cell, tuple[str, str]], cls: str = "clue") -> list[str]:
    """A number with a small arrow beside it in each cell of ``items`` (``{cell: (direction,
    label)}``, direction ``n``/``s``/``e``/``w`` or ``""``), as puzzle books print arrow clues:
    an up or down arrow left of the number, a left or right arrow above it. Class ``cls`` on the
    number, ``arrow`` on the arrow."""
    out = []
    for (r, c), (direction, label) in items.items():
        x, y = _centre(r, c)
        if direction:
            dx, dy = _ARROW_STEPS[direction]
            half = CELL * 0.16
            if dx:  # a horizontal arrow along the top of the cell, the number below it
                ax, ay, ny = x, r * CELL + CELL * 0.2, y + CELL * 0.1
            else:  # a vertical arrow at the left of the cell, the number right of it
                ax, ay, ny = c * CELL + CELL * 0.22, y, y
            nx = x + (CELL * 0.1 if not dx else 0)
            tip = (ax + dx * half, ay + dy * half)
            tail = (ax - dx * half, ay - dy * half)
            head = CELL * 0.09
            left = (tip[0] - dx * head - dy * head, tip[1] - dy * head - dx * head)
            right = (tip[0] - dx * head + dy * head, tip[1] - dy * head + dx * head)
            out.append(_line("arrow", *tail, *tip, INK, 1.6))
            out.append(f'<polyline class="arrow" points="{left[0]:g},{left[1]:g} {tip[0]:g},{tip[1]:g} '
                       f'{right[0]:g},{right[1]:g}" fill="none" stroke="{INK}" stroke-width="1.6"/>')
        else:
            nx, ny = x, y
        if label:
            size = CELL * (0.5 if len(label) < 3 else 0.36)
            out.append(f'<text class="{cls}" x="{nx:g}" y="{ny:g}" font-size="{size:g}" font-weight="bold" '
                       f'fill="{INK}" text-anchor="middle" dominant-baseline="central">{escape(label)}</text>')
    return out


def facts(items: Iterable[tuple[tuple, bool, str | None]], colour: str, cls: str) -> list[str]:
    """Marks for single facts of a partial solution, in ``colour``: ``(part, value, label)`` with
    ``part`` a cell ``(r, c)`` (true: a ``label`` if given, else a square; false: a small dot),
    an edge ``("h"|"v", i, j)`` of the dot lattice or a link ``((r, c), (r2, c2))`` between cell
    centres (true: a thick line; false: a small cross at its middle)."""
    out = []
    for part, value, label in items:
        if is_edge(part):
            kind, i, j = part
            ends = [(j * CELL, i * CELL), ((j + 1) * CELL, i * CELL) if kind == "h" else (j * CELL, (i + 1) * CELL)]
        elif _is_link(part):
            ends = [_centre(*part[0]), _centre(*part[1])]
        else:
            r, c = part
            if value and label is not None:
                out.append(_text(cls, r, c, label, colour, CELL * 0.55))
            elif value:
                out.append(_rect(cls, r, c, colour, inset=6))
            else:
                x, y = _centre(r, c)
                out.append(f'<circle class="{cls}" cx="{x:g}" cy="{y:g}" r="3.5" fill="{colour}"/>')
            continue
        (x1, y1), (x2, y2) = ends
        if value:
            out.append(_line(cls, x1, y1, x2, y2, colour, 4))
        else:
            x, y, d = (x1 + x2) / 2, (y1 + y2) / 2, 4
            out += [_line(cls, x - d, y - d, x + d, y + d, colour, 2), _line(cls, x - d, y + d, x + d, y - d, colour, 2)]
    return out


def marked(cells: Iterable[Cell], cls: str = "reason") -> list[str]:
    """A translucent yellow square over each of ``cells`` (e.g. the cells a reason names)."""
    return [_rect(cls, r, c, YELLOW, inset=2).replace("/>", ' fill-opacity="0.55"/>') for r, c in cells]
