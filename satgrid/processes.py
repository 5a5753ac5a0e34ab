"""Child processes that run in a process group of their own: signalling the whole group, and
starting one without a window in which a signal could leave it running.

A child in a group (or session) of its own is out of reach of the signals sent to ours (a
terminal's Ctrl-C, a ``kill`` of our group), so whoever starts it must stop it: the SAT binaries
of :mod:`satgrid.external` and the race workers of :mod:`satgrid.portfolio` are stopped by
:func:`signal_group` (SIGKILL reaches a wrapper script and whatever it started together), then
reaped by their starter. Between the start of such a child and the ``try`` that stops it on the
way out there is a window (inside ``subprocess.Popen``, after the fork): an exception raised
there by a signal handler (KeyboardInterrupt, SystemExit) leaves the child running with no one
to kill it. :func:`signals_held` closes it: the program's handlers of SIGINT and SIGTERM run only
once the block has ended.
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading
from typing import Any, Iterator

#: The signals that stop a run: a terminal's Ctrl-C, ``kill`` and ``timeout``.
STOPPING = (signal.SIGINT, signal.SIGTERM)


def signal_group(pid: int, signum: int) -> None:
    """Send ``signum`` to the process group that process ``pid`` leads, or to ``pid`` alone when
    it leads none (not yet); nothing when it is gone. The caller reaps ``pid`` afterwards, not
    before: an unreaped child's id cannot be taken by another process."""
    try:
        os.killpg(pid, signum)
    except OSError:
        try:
            os.kill(pid, signum)
        except OSError:
            pass


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Run the block with the program's Python handlers of :data:`STOPPING` held back: a signal
    that arrives meanwhile is raised again when the block ends, so its handler runs after the
    block (after ``proc = subprocess.Popen(...)`` has assigned ``proc``, inside the caller's
    ``try``). Only the main thread runs Python signal handlers, so in another thread nothing
    can interrupt the block and nothing is held; a signal with no Python handler (the default
    action, ignored, or a handler set outside Python) is left as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        caught.append(signum)

    held = {}
    try:
        for signum in STOPPING:
            handler = signal.getsignal(signum)
            if callable(handler):
                held[signum] = handler
                signal.signal(signum, hold)
        yield
    finally:
        for signum, handler in held.items():
            signal.signal(signum, handler)
        for signum in caught:
            signal.raise_signal(signum)
