"""ipuz JSON documents (ipuz v2), read and written through the genres' codecs.

An ipuz document is a JSON object whose ``kind`` lists PuzzleKind URLs. A genre with an ipuz kind
declares ``IPUZ = ipuz.Codec(kind=..., title=..., read=..., write=...)``; :func:`read` picks the
codec whose kind the document names (a kind URL counts with or without its ``#version``) and
:func:`write` lays out what the codec's writer returns, a grid row a line.

Errors name the JSON line and column (of the document, or of the field at fault).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import ParseError, UnsupportedGenre

VERSION = "http://ipuz.org/v2"


def is_json(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def loads(text: str, source: str, line: int = 1) -> Any:
    """``json.loads``, but JSON nested deeper than Python's recursion limit (where ``json`` raises
    RecursionError) is a ParseError; invalid JSON still raises ``json.JSONDecodeError``."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ParseError(source, line, "JSON nested too deeply to be a puzzle", 1) from None


@dataclass(frozen=True)
class Document:
    """A parsed ipuz document, handed to :attr:`Codec.read`; :meth:`error` points at a field."""

    doc: dict[str, Any]
    text: str
    source: str

    def get(self, key: str, default: Any = None) -> Any:
        return self.doc.get(key, default)

    def error(self, message: str, key: str = "puzzle") -> ParseError:
        """A ParseError at the line and column of ``"key"`` in the document (its start if absent)."""
        at = max(self.text.find(f'"{key}"'), 0)
        line = self.text.count("\n", 0, at) + 1
        return ParseError(self.source, line, message, at - (self.text.rfind("\n", 0, at) + 1) + 1)


@dataclass(frozen=True)
class Codec:
    """A genre's ipuz kind, one value for both ways (the genre's ``IPUZ`` part).

    * ``kind``: the PuzzleKind URL written (``http://ipuz.org/<kind>#1``); a document whose
      ``kind`` list holds a URL starting with it up to the ``#`` is read by this codec;
    * ``title``: the kind's name in messages ("not an ipuz <title>");
    * ``read(document) -> (puzzle, solution or None)``: errors through :meth:`Document.error`
      (ParseError) or UnsupportedGenre for variants satgrid does not solve;
    * ``write(puzzle, solution or None) -> fields``: the document's fields after ``version`` and
      ``kind``, in order; a list of lists (a grid) is written a row a line. Refusals raise
      UnsupportedGenre.
    """

    kind: str
    title: str
    read: Callable[[Document], tuple[Any, Any]]
    write: Callable[[Any, Any], dict[str, Any]]

    @property
    def family(self) -> str:
        """The kind URL without its version: what a document's kind must start with."""
        return self.kind.split("#", 1)[0]


def codecs() -> dict[str, Codec]:
    """Genre name -> codec, over the registry's genres with an ``IPUZ`` part; a kind two genres
    claim is an error in the registry (ValueError)."""
    from ..registry import with_part

    out: dict[str, Codec] = {}
    for g, codec in with_part("IPUZ"):
        owner = next((name for name, other in out.items() if other.family == codec.family), None)
        if owner is not None:
            raise ValueError(f"ipuz kind {codec.family!r} of genre {g.name} is already {owner}'s")
        out[g.name] = codec
    return out


def read(text: str, source: str = "<ipuz>", genre: str | None = None) -> tuple[Any, Any]:
    """The puzzle of an ipuz document and its solution (None when it has none)."""
    try:
        doc = loads(text, source)
    except json.JSONDecodeError as exc:
        raise ParseError(source, exc.lineno, f"not valid JSON: {exc.msg}", exc.colno) from None
    if not isinstance(doc, dict):
        raise ParseError(source, 1, "a JSON document that is not an ipuz object", 1)
    document = Document(doc, text, source)
    games = codecs()
    kinds = doc.get("kind")
    found = [(name, codec) for name, codec in games.items()
             if isinstance(kinds, list) and any(isinstance(k, str) and k.startswith(codec.family) for k in kinds)]
    if not found:
        titles = " or ".join(codec.title for codec in games.values())
        raise document.error(f"not an ipuz {titles} (kind {kinds!r}); satgrid reads ipuz {titles} only", "kind")
    name, codec = found[0]
    if genre is not None and genre != name:
        raise document.error(f"an ipuz {codec.title}, but the genre asked for is {genre}", "kind")
    return codec.read(document)


def write(puzzle: Any, solution: Any = None) -> str:
    """The ipuz document of ``puzzle`` (with its solution when given)."""
    games = codecs()
    if puzzle.genre not in games:
        raise UnsupportedGenre(f"ipuz has no {puzzle.genre} kind (satgrid writes ipuz "
                               f"{' and '.join(codec.title for codec in games.values())})")
    codec = games[puzzle.genre]
    fields = {"version": VERSION, "kind": [codec.kind], **codec.write(puzzle, solution)}
    lines = []
    for key, value in fields.items():
        if isinstance(value, (list, tuple)) and value and all(isinstance(row, (list, tuple)) for row in value):
            rows = ",\n".join(f"    {json.dumps(list(row))}" for row in value)
            lines.append(f"  {json.dumps(key)}: [\n{rows}\n  ],")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines[-1] = lines[-1][:-1]
    return "{\n" + "\n".join(lines) + "\n}\n"
