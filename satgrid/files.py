"""Writing output files: through a temporary file renamed into place (never a half file), with
the mode a new file gets (0666 less the umask, usually 0644), and without the temporary files of
a killed run piling up: each temporary name carries its writer's process id, and the next write
to the same target removes those whose writer is gone."""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _temp_prefix(path: Path, pid: int) -> str:
    return f".{path.name}.{pid}."


def remove_stale_temps(path: Path) -> None:
    """Remove the temporary files of earlier writes to ``path`` whose process has died."""
    lead = f".{path.name}."
    with contextlib.suppress(OSError), os.scandir(path.parent) as entries:
        for entry in entries:
            name = entry.name
            if not (name.startswith(lead) and name.endswith(".tmp")):
                continue
            pid = name[len(lead):].split(".", 1)[0]
            if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path``: a temporary file beside it, mode 0666 less the
    umask, renamed over ``path``. Raises OSError."""
    with atomic_target(path) as tmp, open(tmp, "wb") as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)


def _new_temp(path: Path) -> str:
    """A new empty temporary file beside ``path`` (its folder made), mode 0666 less the umask."""
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(path)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path, os.getpid()), suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        os.close(fd)
    return tmp


@contextlib.contextmanager
def atomic_target(path: Path) -> Iterator[str]:
    """A temporary file's name beside ``path`` (mode 0666 less the umask) for the caller to
    write; renamed over ``path`` when the block ends, removed if it raises. Raises OSError."""
    tmp = _new_temp(path)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


class NotAllWritten(Exception):
    """:func:`write_all` stopped at ``target`` for ``reason``; ``written`` were replaced before."""

    def __init__(self, target: Path, reason: str, written: list[Path]) -> None:
        super().__init__(f"{target}: {reason}")
        self.target, self.reason, self.written = target, reason, written


def write_all(files: list[tuple[Path, bytes]]) -> None:
    """Write each ``(path, data)``, all or nothing as far as the OS lets: every data goes to a
    temporary file beside its path (:func:`_new_temp`) first, and only once all are written are
    they renamed into place, in order. A write that fails removes every temporary file (nothing
    was replaced). A rename can still fail (the folder changed meanwhile) and one done cannot be
    undone (the old file is gone): the temporary files not yet renamed are removed and
    :class:`NotAllWritten` names the paths already replaced."""
    temps: list[tuple[Path, str]] = []
    path = files[0][0] if files else Path()
    try:
        for path, data in files:
            temps.append((path, _new_temp(path)))
            with open(temps[-1][1], "wb") as handle:
                handle.write(data)
    except OSError as exc:
        _remove(tmp for _, tmp in temps)
        raise NotAllWritten(path, exc.strerror or str(exc), []) from None
    for i, (path, tmp) in enumerate(temps):
        try:
            os.replace(tmp, path)
        except OSError as exc:
            _remove(tmp for _, tmp in temps[i:])
            raise NotAllWritten(path, exc.strerror or str(exc), [p for p, _ in temps[:i]]) from None


def _remove(paths: Iterator[str]) -> None:
    for tmp in paths:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def unwritable(path: Path) -> str | None:
    """Why :func:`write_atomic` could not write ``path``, found before any work, or None: the
    path is a directory, or its nearest existing ancestor is not a directory, or no file can be
    made in it (probed by making and removing a temporary file there, which holds for root and
    read-only mounts alike, where ``os.access`` does not). Missing parents are made by the write."""
    if path.is_dir():
        return "a directory"
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is not a directory"
    try:
        fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path, os.getpid()), suffix=".tmp", dir=folder)
    except OSError as exc:
        return f"cannot write in {folder}: {exc.strerror}"
    os.close(fd)
    os.unlink(tmp)
    return None
