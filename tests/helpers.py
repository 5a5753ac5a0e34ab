"""Shared test helpers: the shared data folder and the block format's solutions."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

#: ``shared/`` stands beside the checkout (in CI too); SATGRID_SHARED points elsewhere.
SHARED = Path(os.environ.get("SATGRID_SHARED", Path(__file__).resolve().parents[2] / "shared"))
DATA = SHARED / "data"


def shared_file(*parts: str) -> Path:
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    return path
