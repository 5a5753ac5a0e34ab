"""Runs one benchmark script against an old revision and the working tree, in one run.

    .venv/bin/python bench/old_vs_new.py --old REV [--rounds 2] bench/bench_sudoku.py [ARGS...]

The old revision is exported with ``git archive`` into a temporary folder; each bench script puts
its own checkout first on ``sys.path``, so the old copy of the script measures the old package.
``--new-script`` copies the working tree's script (and ``bench/common.py``) into the old folder
first: for a script the old revision lacks, which must then only use what both revisions have.
Old and new runs alternate (old, new, old, new, ...), so both see the same machine load. Then
every output line whose text (numbers and spacing aside) is the same in both prints once, each number as the
median over the rounds of the new runs followed by ``(+x%)``, its change against the old median
(a time that grew by x%), or ``(old y)`` when the change rounds to -100%. Lines that differ
print as they are, old first; lines only the new runs print get their new medians and
``(new only)``, and lines only the old runs print come last.
"""
from __future__ import annotations

import argparse
import difflib
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.common import export  # noqa: E402
NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def skeleton(line: str) -> str:
    """A line's text with its numbers and the width of its spacing left out (columns of a table
    widen with their numbers)."""
    return re.sub(r"\s+", " ", NUMBER.sub("#", line)).strip()


def run(tree: Path, script: str, args: list[str]) -> list[str]:
    done = subprocess.run([sys.executable, str(tree / script), *args], cwd=tree, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree / script} failed:\n{done.stderr}")
    return done.stdout.splitlines()


def aligned(reference: list[str], other: list[str]) -> dict[int, str]:
    """The lines of ``other`` matched to the lines of ``reference`` by their skeletons (difflib's
    longest matching blocks), so a table one revision lacks does not shift the lines after it."""
    matcher = difflib.SequenceMatcher(None, [skeleton(x) for x in reference],
                                      [skeleton(x) for x in other], autojunk=False)
    return {a + k: other[b + k] for a, b, size in matcher.get_matching_blocks() for k in range(size)}


def medians(lines: list[str]) -> list[float]:
    return [statistics.median(v) for v in zip(*([float(x) for x in NUMBER.findall(t)] for t in lines))]


def merge(old_runs: list[list[str]], new_runs: list[list[str]]) -> list[str]:
    """The lines of the runs, numbers replaced by the new median and its change against the old;
    a line only the new runs print (in all of them) gets the new median and ``(new only)``."""
    out = []
    reference = new_runs[0]
    old_maps = [aligned(reference, run) for run in old_runs]
    new_maps = [aligned(reference, run) for run in new_runs]
    for i, line in enumerate(reference):
        news = [m[i] for m in new_maps if i in m]
        olds = [m[i] for m in old_maps if i in m]
        if len(news) != len(new_runs):
            out.append(f"new (first run, not in every run): {line}")
            continue
        if not olds:
            pieces = NUMBER.split(line)
            out.append(pieces[0] + "".join(f"{b:g}{piece}" for b, piece in zip(medians(news), pieces[1:]))
                       + "  (new only)")
            continue
        if len(olds) != len(old_runs):
            out += [f"old (first run): {olds[0]}", f"new: {line}"]
            continue
        pieces = NUMBER.split(line)
        text = pieces[0]
        for a, b, piece in zip(medians(olds), medians(news), pieces[1:]):
            change = f" ({(b - a) / a * 100:+.0f}%)" if a > 0 and a != b else ""
            if change == " (-100%)":
                change = f" (old {a:g})"  # a drop this large says more as the old value
            text += f"{b:g}{change}{piece}"
        out.append(text)
    for j, line in enumerate(old_runs[0]):
        if j not in set(aligned(old_runs[0], reference)):
            out.append(f"old only (first run): {line}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the git revision to compare against")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each, alternating")
    parser.add_argument("--new-script", action="store_true",
                        help="run the working tree's copy of the script against the old package too")
    parser.add_argument("script", help="a bench script, relative to the checkout (bench/bench_x.py)")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="satgrid-old-") as folder:
        old_tree = export(options.old, Path(folder))
        if options.new_script:
            for name in (options.script, "bench/common.py"):
                (old_tree / name).write_bytes((ROOT / name).read_bytes())
        old_runs, new_runs = [], []
        for _ in range(options.rounds):
            old_runs.append(run(old_tree, options.script, options.args))
            new_runs.append(run(ROOT, options.script, options.args))
    print(f"# {options.script} {' '.join(options.args)}: new against old ({options.old}"
          f"{', the new script on both' if options.new_script else ''}), "
          f"medians of {options.rounds} alternating runs each")
    print("\n".join(merge(old_runs, new_runs)))


if __name__ == "__main__":
    main()
