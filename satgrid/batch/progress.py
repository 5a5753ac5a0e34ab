"""The progress bar of a batch: done/total, percentage, rate and time left, on one line."""
from __future__ import annotations

import sys
import time
from typing import Any


class Bar:
    """``label [#####.....] 1234/49151 2.5% 812/s ETA 0:59``, redrawn in place (at most five
    times a second) on ``stream`` when ``on``; :meth:`close` ends the line."""

    def __init__(self, label: str, on: bool, stream: Any = None, width: int = 24) -> None:
        self.label, self.on, self.width = label, on, width
        self.stream = sys.stderr if stream is None else stream
        self.started = self.drawn = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.on or (now - self.drawn < 0.2 and done < total):
            return
        self.drawn = now
        elapsed = now - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        fill = self.width * done // total if total else self.width
        left = "--:--" if not rate else _clock((total - done) / rate)
        self.stream.write(f"\r{self.label} [{'#' * fill}{'.' * (self.width - fill)}] {done}/{total} "
                          f"{100 * done / total if total else 100:.1f}% {rate:.0f}/s ETA {left}\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    minutes, s = divmod(int(seconds + 0.5), 60)
    hours, m = divmod(minutes, 60)
    return f"{hours}:{m:02d}:{s:02d}" if hours else f"{m}:{s:02d}"
