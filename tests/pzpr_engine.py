"""The puz.link engine: the npm package pzpr 0.10.1 under node (``make pzpr`` installs it into
tests/node/), driven by tests/pzpr_check.js, which opens each puz.link URL or pzprv3 file it is
given and reports what pzpr sees in it (clues, the URL and file it writes back, its checker's
verdict). One driver for the tests (through ``tests.helpers.run_pzpr``) and the bench scripts.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "pzpr_check.js"
PACKAGE = ROOT / "tests" / "node" / "node_modules" / "pzpr" / "package.json"
NODE = shutil.which("node")
#: The engine's name and version, as reports name it.
NAME = "pzpr 0.10.1"
#: The engine's error for a puzzle type it does not have (pzpr 0.10.1 predates some, such as
#: pzprjs's ``nurimisaki``): a report with it is no verdict.
UNKNOWN_TYPE = "Invalid Puzzle Variety Selected"


def unknown_type(report: dict) -> bool:
    """Whether the engine refused a report's item because it lacks its puzzle type."""
    return report.get("error") == UNKNOWN_TYPE


class EngineError(Exception):
    """node ran but did not give one report per item."""


def missing() -> str | None:
    """Why the engine cannot run here (node, or pzpr in tests/node/, is missing), or None."""
    if NODE is None:
        return "node is not installed: the puz.link engine (npm pzpr) cannot run"
    if not PACKAGE.exists():
        return ("node is here but pzpr is not installed in tests/node/: run `make pzpr` "
                "(npm install --prefix tests/node pzpr@0.10.1)")
    return None


def reports(items: list[str], timeout: float = 600) -> list[dict]:
    """The engine's report on each puz.link URL or pzprv3 text of ``items``, in one node
    process: ``{pid, rows, cols, clues, url, file, complete, text}`` (see tests/pzpr_check.js)
    or ``{error}`` for an item it cannot open. EngineError when node fails."""
    why = missing()
    if why is not None:
        raise EngineError(why)
    done = subprocess.run([NODE, str(SCRIPT)], input=json.dumps(items), capture_output=True,
                          text=True, timeout=timeout)
    if done.returncode != 0:
        raise EngineError(f"node {SCRIPT.name} exited with status {done.returncode}: "
                          f"{done.stderr.strip()[-500:]}")
    out = json.loads(done.stdout)
    if len(out) != len(items):
        raise EngineError(f"{len(out)} reports for {len(items)} items")
    return out
