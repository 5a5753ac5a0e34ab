"""Every example command in README.md runs as printed, in order, from a checkout.

Each line of the README's ``sh`` blocks runs in bash, with ``.venv/bin/satgrid`` and
``.venv/bin/python`` replaced by this interpreter (``python -P``: the working directory
is not put on the import path), in a scratch directory that holds copies of the files a checkout
ships (``satgrid/data``, ``bench/data``) and ``cnf_out/``. Lines run in README order, so a line may
read what an earlier one wrote. ``make`` lines are what CI itself runs and are skipped; a line
that needs an external SAT binary or the png extra is skipped when it is missing.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    """The command lines of README.md's ``sh`` blocks, in order, but for ``make`` lines."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            line = line.strip()
            if line and not line.startswith(("#", "make ")):
                commands.append(line)
    return commands


def _missing(line: str) -> str | None:
    """Why ``line`` cannot run on this machine (a missing binary or extra), else None."""
    for binary in re.findall(r"external:([\w./-]+)", line) + re.findall(r"(?:^|[;&|]\s*)(cadical|minisat)\b", line):
        if shutil.which(binary) is None:
            return f"{binary} is not installed"
    if ".png" in line and importlib.util.find_spec("cairosvg") is None:
        return "the png extra (cairosvg) is not installed"
    return None


def test_readme_has_example_commands():
    commands = readme_commands()
    assert len(commands) >= 15, commands
    assert any("satgrid/data/" in c for c in commands)


def test_readme_commands_run_as_printed(tmp_path: Path):
    for folder in ("satgrid/data", "bench/data"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    (tmp_path / "cnf_out").mkdir()
    python = f"{shlex.quote(sys.executable)} -P"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    ran = 0
    for line in readme_commands():
        if _missing(line):
            continue
        script = re.sub(r"\.venv/bin/(satgrid|python)",
                        lambda m: f"{python} -m satgrid" if m.group(1) == "satgrid" else python, line)
        done = subprocess.run(["bash", "-c", "set -o pipefail; " + script], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"README line failed ({done.returncode}): {line}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, line
        ran += 1
    assert ran >= 12
