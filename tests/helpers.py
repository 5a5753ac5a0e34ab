"""Shared test helpers: the shared data folder and the block format's solutions."""
from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
if not SHARED.exists():  # a clone elsewhere: look beside the checkout's parent too
    SHARED = Path(__file__).resolve().parents[1].parent / "shared"
DATA = SHARED / "data"


def shared_file(*parts: str) -> Path:
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    return path
