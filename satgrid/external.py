"""External SAT solvers (separate binaries) behind the interface of :class:`~satgrid.solver.EmbeddedSolver`.

``Session(encoding, "external:cadical")`` (or ``external:minisat``, ``external:picosat``,
``external:cryptominisat5``, ``external:/path/to/binary``) runs the one CEGAR loop, uniqueness and
audits on a binary: :class:`ExternalSolver` keeps every clause it was given, and each ``solve``
writes them, plus the assumptions as unit clauses, to a temporary DIMACS file and runs the binary
once. Lazy connectivity therefore costs one run per CEGAR iteration (the cuts are added to the
clause list like any clause); eager connectivity needs one run per query.

Per solver (``../shared/FORMATS.md`` section 4): how to run it, its own time-limit flag, its
conflict-limit flag if it has one, and how it reports. A binary given by path whose file name is a
known solver (``/opt/bin/cadical``) uses that solver's profile; any other binary must print
SAT-competition output (``s`` and ``v`` lines) and gets limits from outside only.

Trust: nothing a binary prints is believed without a check. A SAT answer needs an ``s
SATISFIABLE`` line *and* an assignment that satisfies every clause sent (checked here, clause by
clause); an UNSAT answer needs ``s UNSATISFIABLE`` and, for the four known solvers, exit status 20,
and is then verified by re-solving the same CNF (every clause sent, the assumptions as
assumptions) with an embedded solver, :data:`VERIFIER`: one incremental solver per
``ExternalSolver`` that is given the clauses added since its last call, so each UNSAT answer costs
one more, incremental, SAT call. If the re-solve finds an assignment, the binary lied and that is a
:class:`~satgrid.errors.SolverError`; if it stops at the time or conflict limit, the answer is
``None`` ("unknown"), never an unverified UNSAT. ``trust_unsat=True`` (``--trust-external-unsat``)
skips the re-solve. After each UNSAT answer :attr:`ExternalSolver.unsat_check` says how it was
established (:data:`VERIFIED` or :data:`TRUSTED`), for the report.
Anything else (a missing binary, a crash, a non-zero exit without an ``s`` line, garbage, picosat's
exit 0 on a parse error) raises :class:`~satgrid.errors.SolverError` with what the binary said.
A time limit is passed to the solver's own flag and also enforced from outside: the process group
is killed :data:`GRACE_S` seconds after the deadline; either way the answer is ``None``
("unknown").

Sessions with an external solver may be shared between puzzles (``api.session_for`` caches them
like embedded ones): the clause list only ever grows by sound clauses (rule cuts, clue clauses
behind selectors, blocking clauses behind activation literals that are later switched off by unit
clauses), exactly what an incremental embedded solver holds.
"""
from __future__ import annotations

import math
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from .cnf import Clause
from .errors import SolverError
from .processes import signal_group, signals_held
from .puzzle import printable
from .solver import DEFAULT_SOLVER, EmbeddedSolver, check_conflict_limit

PREFIX = "external:"

#: Seconds past the deadline before the binary is killed from outside. Its own limit flag takes
#: whole seconds, rounded up, so the kill usually comes first; the answer is "unknown" either way,
#: and the time limit is a wall-clock limit on the whole puzzle.
GRACE_S = 0.02

#: The embedded solver that re-solves every UNSAT answer of a binary, and how the report names
#: the two ways an UNSAT answer is taken (``unsat_checks`` in the JSON report).
VERIFIER = DEFAULT_SOLVER
VERIFIED = f"verified by embedded re-solve ({VERIFIER})"
TRUSTED = "trusted, not verified"


@dataclass(frozen=True)
class Profile:
    """How one known binary is run and how it answers."""

    name: str
    package: str  # the Debian package that provides it
    args: tuple[str, ...]  # before the input file
    time_flag: tuple[str, ...] = ()  # "{}" becomes whole seconds
    conflict_flag: tuple[str, ...] = ()  # "{}" becomes a number of conflicts
    minisat_output: bool = False  # answer in a result file (minisat), not s/v lines on stdout
    #: Lines a solver prints instead of an ``s`` line when it stops at a limit.
    unknown_lines: tuple[str, ...] = ()
    #: Exit statuses that go with SAT / UNSAT answers (None: any).
    sat_codes: tuple[int, ...] | None = (10,)
    unsat_codes: tuple[int, ...] | None = (20,)
    note_on_silence: str = ""  # a hint when the binary exits without an answer


PROFILES: dict[str, Profile] = {
    "cadical": Profile("cadical", "cadical", ("-q",), ("-t", "{}"), ("-c", "{}"), unknown_lines=("c UNKNOWN",)),
    "picosat": Profile("picosat", "picosat", (), ("-L", "{}"),
                       note_on_silence="picosat exits 0 on a DIMACS parse error"),
    "cryptominisat5": Profile("cryptominisat5", "cryptominisat", ("--verb", "0"),
                              ("--maxtime", "{}"), ("--maxconfl", "{}")),
    "minisat": Profile("minisat", "minisat", ("-verb=0",), ("-cpu-lim={}",),
                       minisat_output=True),
}
#: A binary satgrid knows nothing about: SAT-competition output, limits from outside only.
GENERIC = Profile("generic", "", (), sat_codes=None, unsat_codes=None)


def is_external(name: str) -> bool:
    return name.startswith(PREFIX)


def find_binary(name: str) -> tuple[str, Profile]:
    """The executable for ``external:<what>`` and its profile; SolverError when it is missing."""
    what = name[len(PREFIX):] if is_external(name) else name
    if not what:
        raise SolverError(f"{name!r}: name a solver after 'external:' "
                          f"({', '.join(PROFILES)} or a path to a binary)")
    profile = PROFILES.get(Path(what).name, GENERIC)
    if "/" in what:
        path = Path(what)
        if not path.is_file():
            raise SolverError(f"external solver {what}: no such file")
        if not os.access(path, os.X_OK):
            raise SolverError(f"external solver {what}: not executable")
        return str(path.resolve()), profile
    found = shutil.which(what)
    if found is None:
        if what in PROFILES:
            package = PROFILES[what].package
            raise SolverError(f"external solver {what} not found on PATH: install the Debian package "
                              f"{package} (apt-get install {package})")
        raise SolverError(f"external solver {what!r} not found on PATH (known: "
                          f"{', '.join(PROFILES)}; or give a path, external:/path/to/binary)")
    return found, profile


class ExternalSolver:
    """A SAT binary used as if it were incremental: the clause list is rewritten for each call."""

    def __init__(self, name: str, conflict_limit: int | None = None, trust_unsat: bool = False):
        conflict_limit = check_conflict_limit(conflict_limit)
        self.binary, self.profile = find_binary(name)
        self.name = name
        self.label = name[len(PREFIX):]
        if conflict_limit is not None and not self.profile.conflict_flag:
            raise SolverError(f"{name} has no conflict limit; use a time limit "
                              f"(conflict limits: external:cadical, external:cryptominisat5)")
        self.conflict_limit = conflict_limit
        self.deadline: float | None = None
        self.clauses: list[tuple[int, ...]] = []
        self._lines: list[str] = []  # each clause rendered once, as it will be written
        self._top = 0
        self._call_top = 0  # the largest variable of the last call (assumptions included)
        self._model: list[int] | None = None
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._tmp_pid = 0
        #: Binary runs so far and the wall time spent in them (process start to exit).
        self.runs = 0
        self.run_time_s = 0.0
        self.trust_unsat = trust_unsat
        #: How the last UNSAT answer was established: :data:`VERIFIED` or :data:`TRUSTED`.
        self.unsat_check: str | None = None
        self._verifier: EmbeddedSolver | None = None
        self._verified_clauses = 0  # how many of ``clauses`` the verifier holds

    # -- the EmbeddedSolver interface ----------------------------------------------------------
    def add(self, clauses: Iterable[Clause]) -> None:
        for clause in clauses:
            c = tuple(clause)
            self.clauses.append(c)
            self._lines.append(" ".join(map(str, c)) + " 0\n")
            for lit in c:
                if lit > self._top or -lit > self._top:
                    self._top = abs(lit)

    def solve(self, assumptions: Sequence[int] = ()) -> bool | None:
        """True (SAT, assignment checked), False (UNSAT, re-solved unless ``trust_unsat``), None
        (a time or conflict limit)."""
        self._model = None
        self.unsat_check = None
        timeout = None
        if self.deadline is not None:
            timeout = self.deadline - time.monotonic()
            if timeout <= 0:
                return None
        units = [(lit,) for lit in assumptions]
        top = self._call_top = max([self._top, *(abs(lit) for lit in assumptions)])
        cnf, result = self._files()
        with open(cnf, "w") as handle:
            handle.write(f"p cnf {top} {len(self.clauses) + len(units)}\n")
            handle.writelines(self._lines)
            handle.writelines(f"{lit} 0\n" for lit in assumptions)
        result.unlink(missing_ok=True)  # never read a result file left by an earlier call
        command = self._command(cnf, result, timeout)
        started = time.perf_counter()
        ran = run(command, timeout)
        self.runs += 1
        self.run_time_s += time.perf_counter() - started
        if ran is None:
            return None
        code, out, err = ran
        if self.profile.minisat_output:
            text = result.read_text(errors="replace") if result.exists() else None
            answer = self._read_minisat(code, text, out, err)
        else:
            answer = self._read_competition(code, out, err)
        if answer is True:
            self._check_assignment(units)
        elif answer is False:
            return self._verified_unsat(assumptions)
        return answer

    def _verified_unsat(self, assumptions: Sequence[int]) -> bool | None:
        """After the binary said UNSAT: False once the verifier agrees (or with ``trust_unsat``),
        None when it stops at a limit; SolverError when it finds an assignment."""
        if self.trust_unsat:
            self.unsat_check = TRUSTED
            return False
        if self._verifier is None:
            self._verifier = EmbeddedSolver(VERIFIER, self.conflict_limit)
        self._verifier.add(self.clauses[self._verified_clauses:])
        self._verified_clauses = len(self.clauses)
        self._verifier.deadline = self.deadline
        answer = self._verifier.solve(assumptions)
        if answer:
            raise SolverError(f"{self.label} said UNSATISFIABLE but the embedded re-solve "
                              f"({VERIFIER}) found an assignment satisfying every clause sent; "
                              "no answer taken from it")
        if answer is False:
            self.unsat_check = VERIFIED
        return answer

    def _files(self) -> tuple[Path, Path]:
        """This solver's input and result files, in a private temporary directory that goes away
        with the solver (``close`` or garbage collection). A forked copy of the solver (worker
        processes) makes its own directory rather than share the parent's files."""
        if self._tmp is None or self._tmp_pid != os.getpid():
            self._tmp = tempfile.TemporaryDirectory(prefix="satgrid-")
            self._tmp_pid = os.getpid()
        return Path(self._tmp.name) / "in.cnf", Path(self._tmp.name) / "out.txt"

    def model(self) -> list[int]:
        if self._model is None:
            raise SolverError(f"{self.name}: no assignment (the last call was not SAT)")
        return self._model

    def propagate(self, assumptions: Sequence[int]) -> tuple[bool, list[int]]:
        raise SolverError(f"unit propagation is not supported by external solvers ({self.name}); "
                          "use an embedded solver")

    def set_phases(self, literals: Sequence[int]) -> None:
        """External solvers take no phase hints; nothing to do."""

    def close(self) -> None:
        self.clauses.clear()
        self._lines.clear()
        if self._verifier is not None:
            self._verifier.close()
            self._verifier = None
            self._verified_clauses = 0
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    # -- running -------------------------------------------------------------------------------
    def _command(self, cnf: Path, result: Path, timeout: float | None) -> list[str]:
        p = self.profile
        command = [self.binary, *p.args]
        if timeout is not None:
            seconds = max(1, math.ceil(timeout))
            command += [arg.format(seconds) for arg in p.time_flag]
        if self.conflict_limit is not None:
            command += [arg.format(self.conflict_limit) for arg in p.conflict_flag]
        command.append(str(cnf))
        if p.minisat_output:
            command.append(str(result))
        return command

    # -- reading answers -----------------------------------------------------------------------
    def _fault(self, what: str, code: int, out: str, err: str) -> SolverError:
        said = _tail(err) or _tail(out)
        hint = f" ({self.profile.note_on_silence})" if self.profile.note_on_silence else ""
        status = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        return SolverError(f"{self.label}: {what} ({status}){hint}"
                           + (f"; it said: {said}" if said else "") + "; no answer taken from it")

    def _read_competition(self, code: int, out: str, err: str) -> bool | None:
        status, values = None, []
        ended = False
        for number, raw in enumerate(out.splitlines(), 1):
            line = raw.strip()
            if line.startswith("s ") or line == "s":
                word = line[1:].strip()
                if status is not None and word != status:
                    raise self._fault(f"two different result lines ('s {status}', '{line}')",
                                      code, out, err)
                status = word
            elif line.startswith("v ") or line == "v":
                try:
                    lits = [int(tok) for tok in line[1:].split()]
                except ValueError:
                    raise self._fault(f"garbage in assignment line {number}: {raw[:60]!r}",
                                      code, out, err) from None
                if ended and lits:
                    raise self._fault("assignment continues after its closing 0", code, out, err)
                if 0 in lits:
                    if lits.index(0) != len(lits) - 1:
                        raise self._fault(f"assignment line {number} has 0 before its end",
                                          code, out, err)
                    ended = True
                    lits.pop()
                values += lits
            elif line in self.profile.unknown_lines and status is None:
                status = "UNKNOWN"
        if status is None:
            raise self._fault("no result line ('s SATISFIABLE' / 's UNSATISFIABLE')", code, out, err)
        if status in ("UNKNOWN", "INDETERMINATE"):
            return None
        if status == "UNSATISFIABLE":
            self._expect_code(code, self.profile.unsat_codes, status, out, err)
            return False
        if status != "SATISFIABLE":
            raise self._fault(f"unknown result line 's {status}'", code, out, err)
        self._expect_code(code, self.profile.sat_codes, status, out, err)
        if not ended:
            raise self._fault("SATISFIABLE without a complete assignment ('v ... 0' lines)",
                              code, out, err)
        self._model = self._full_model(values, code, out, err)
        return True

    def _read_minisat(self, code: int, text: str | None, out: str, err: str) -> bool | None:
        if not text:
            raise self._fault("no result file", code, out, err)
        head, _, rest = text.strip().partition("\n")
        head = head.strip()
        if head == "INDET":
            return None
        if head == "UNSAT":
            self._expect_code(code, self.profile.unsat_codes, head, out, err)
            return False
        if head != "SAT":
            raise self._fault(f"result file starts with {head[:40]!r}, not SAT/UNSAT/INDET",
                              code, out, err)
        self._expect_code(code, self.profile.sat_codes, head, out, err)
        try:
            lits = [int(tok) for tok in rest.split()]
        except ValueError:
            raise self._fault("garbage in the result file's assignment", code, out, err) from None
        if not lits or lits[-1] != 0 or 0 in lits[:-1]:
            raise self._fault("result file's assignment is not one list ending in 0", code, out, err)
        self._model = self._full_model(lits[:-1], code, out, err)
        return True

    def _expect_code(self, code: int, allowed: tuple[int, ...] | None, status: str, out: str,
                     err: str) -> None:
        if allowed is not None and code not in allowed:
            raise self._fault(f"said {status} with an exit status other than "
                              f"{'/'.join(map(str, allowed))}", code, out, err)

    def _full_model(self, values: list[int], code: int, out: str, err: str) -> list[int]:
        """The assignment as python-sat gives it: entry v-1 is v or -v for every variable."""
        top = max(self._call_top, max(map(abs, values), default=0))
        model = list(range(-1, -top - 1, -1))
        for lit in values:
            model[(lit if lit > 0 else -lit) - 1] = lit
        if len(set(values)) != len(set(map(abs, values))):
            var = next(abs(lit) for lit in values if -lit in set(values))
            raise self._fault(f"assignment sets variable {var} both ways", code, out, err)
        return model

    def _check_assignment(self, units: list[tuple[int, ...]]) -> None:
        """Every clause sent must hold, or the SAT answer is not believed."""
        assert self._model is not None
        true = set(self._model)  # every variable up to the largest one used appears, as v or -v
        clauses = self.clauses
        if not any(map(true.isdisjoint, clauses)) and not any(map(true.isdisjoint, units)):
            return
        self._model = None
        for index, clause in enumerate([*clauses, *units]):
            if true.isdisjoint(clause):
                what = "assumption" if index >= len(clauses) else f"clause {index + 1}"
                raise SolverError(
                    f"{self.label} said SATISFIABLE but its assignment falsifies {what} "
                    f"({' '.join(map(str, clause))} 0); no answer taken from it")


def run(command: list[str], timeout: float | None) -> tuple[int, str, str] | None:
    """Run ``command``; its exit status, stdout and stderr, or None when killed at the deadline.

    The binary runs in a session (process group) of its own, so a wrapper script and everything
    it started are killed together (a plain kill would leave a child holding the output pipe
    open); whatever ends this call early (the deadline, Ctrl-C, SIGTERM's SystemExit, an error)
    kills the group and reaps the binary, and a signal while it starts is held until ``proc``
    is set (:mod:`satgrid.processes`).
    """
    proc = None
    try:
        with signals_held():
            try:
                proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, start_new_session=True)
            except OSError as exc:
                raise SolverError(f"cannot run {command[0]}: {exc.strerror}") from None
        out, err = proc.communicate(timeout=None if timeout is None else timeout + GRACE_S)
    except BaseException as exc:
        if proc is not None:
            signal_group(proc.pid, signal.SIGKILL)
            proc.communicate()
        if isinstance(exc, subprocess.TimeoutExpired):
            return None
        raise
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def _tail(text: str, limit: int = 200) -> str:
    """The last non-empty lines of a binary's output, on one line, its unprintable characters
    (terminal escapes, bytes read as text) as U+FFFD."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    said = printable(" | ".join(lines[-3:]))
    return said if len(said) <= limit else "..." + said[-limit:]
