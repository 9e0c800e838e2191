"""The author-side run: argv/stdin in, the agent's answer out.

``main(router)`` is the whole program of a Python hook. It follows the
core's steps (``agenthooks::runtime``), shared by every language: ``launch``
(the argv rules: an unknown option is a warning on stderr, a value that
cannot be used or an unknown provider is answered per the fail policy),
``prepare`` (the core's ``start``: stdin first, the legacy argv payload only
when stdin is empty, provider, decode, loop guard; an undecodable payload is
answered right there per the fail policy), the router's handlers on a
worker thread within the deadline (a hung handler is abandoned; an exception
or a timeout goes to the fail policy), then ``complete`` (encode, degrade,
record continuations).

``<program> agenthooks serve --provider=opencode|openclaw`` runs the NDJSON
loop of the plugin bridges instead (``agenthooks::serve``): one hello, then
one ``{"seq", ...frame}`` request per line, each answered like ``run`` as
``{"seq", "output", "notes"?, "error"?}`` (``output`` null for no opinion;
on any failure the fail policy's answer); bad lines get the same kind of
reply and the loop goes on; end of input exits 0. Every rule of the loop
(per-session order with sessions in parallel, the queue bound and
backpressure, stale and refused requests, the replies) is the core's
serve bridge (``_native.Bridge``); this module reads lines, runs each job's
handlers on a pool of threads within its deadline and writes the frames.

Nothing but the answer reaches stdout: while handlers run, ``sys.stdout``
is ``sys.stderr`` and file descriptor 1 points at stderr (so C extensions
and child processes are covered too); the answer goes to the saved stdout.
"""

from __future__ import annotations

import _thread
import os
import sys

from . import _native
from ._native import Decision, Response
from .errors import AgentHooksError

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is for the type checker only (import cost)
    from typing import IO, Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple, Union

    from ._native import Event, Invocation
    from .router import Router

    _Outcome = Union[Decision, BaseException, None]
    _Out = Tuple[bytes, str, List[Tuple[int, Event, int]]]  # a bridge output

__all__ = ["main", "run"]


def _decide_within(
    router: Router,
    event: Event,
    deadline_ms: int,
    on_late: Optional[Callable[[], None]] = None,
    before: Optional[Event] = None,
) -> Tuple[_Outcome, bool]:
    """Runs the router on a worker thread; returns (decision or exception,
    finished). An unfinished worker is abandoned: like a daemon thread it
    never keeps the process alive (a `_thread` thread: `threading` costs
    milliseconds to import); ``on_late`` runs when it finishes after all.
    The one deadline rule of the run and the serve loop."""
    box: List[_Outcome] = []
    state = [0]  # 0 running, 1 done, 2 abandoned
    guard = _thread.allocate_lock()
    done = _thread.allocate_lock()
    done.acquire()

    def work() -> None:
        try:
            if before is not None:
                # A backfilled prompt: observers only, outcome dropped.
                try:
                    router.decide(before)
                except Exception:
                    pass
            box.append(router.decide(event))
        except BaseException as e:  # the fail policy answers it
            box.append(e)
        finally:
            with guard:
                late = state[0] == 2
                state[0] = 1
            if late and on_late is not None:
                on_late()
            done.release()

    _thread.start_new_thread(work, ())
    if not done.acquire(True, min(deadline_ms / 1000.0, _thread.TIMEOUT_MAX)):
        with guard:
            if state[0] == 0:
                state[0] = 2
                return None, False
        done.acquire()  # it finished just now; its release follows at once
    return box[0] if box else None, True


def _runs_user_code(router: Router, event: Event) -> bool:
    return bool(router._observers or router._middleware or router.handles(event))


def _program_argv() -> List[str]:
    """How to run this hook program again, for an async hook's detached
    child: this interpreter, its flags (``-m pkg``, ``-X ...``) and the
    script's argv, as the process was started."""
    orig = getattr(sys, "orig_argv", None)  # Python 3.10+
    if orig:
        return [sys.executable or orig[0]] + list(orig[1:])
    return [sys.executable] + list(sys.argv)


def _complete(
    router: Router, inv: Invocation, program_argv: Optional[List[str]] = None
) -> Tuple[Response, bool]:
    event = inv.event
    # Prompt backfill only when an observer can see it (no cost otherwise).
    before = inv.backfill() if router._observers else None
    if inv.detaching:
        if program_argv is not None:
            answer = inv.detach(program_argv)
            if answer is not None:
                return answer, True
        else:
            # In-process (tests, embedding): the agent's answer is the no
            # opinion at once; the work runs here, its outcome dropped.
            answer = inv.complete(_native.no_decision())
            _decide_within(router, event, inv.deadline_ms, before=before)
            return answer, True
    if before is not None:
        return _finish(inv, *_decide_within(router, event, inv.deadline_ms, before=before))
    if not _runs_user_code(router, event):
        # No user code runs for this event (say, a guard that ignores
        # PostToolUse): nothing can hang, so no worker thread.
        return inv.complete(router.decide(event)), True
    return _finish(inv, *_decide_within(router, event, inv.deadline_ms))


def _finish(inv: Invocation, outcome: _Outcome, finished: bool) -> Tuple[Response, bool]:
    if not finished:
        return inv.complete_timeout(), False
    if isinstance(outcome, Decision):
        return inv.complete(outcome), True
    return inv.complete_error(outcome if outcome is not None else RuntimeError("no outcome")), True


def run(
    router: Router,
    argv: Sequence[str],
    payload: Union[bytes, str],
    *,
    state_dir: Optional[str] = None,
    ancestry: Optional[Sequence[Sequence[str]]] = None,
) -> Response:
    """One hook invocation in-process (for tests and embedding): what
    ``main`` would answer for ``argv`` and this stdin payload (``b""`` for
    an empty stdin), without touching the process's stdout or exiting. A
    hung handler is abandoned on its daemon thread. ``serve`` is not run
    in-process (exit 2, as the core's ``run_argv``). ``state_dir`` (an
    absolute path) holds the state kept between runs (Cursor dedupe
    markers, the stop-continuation count) instead of the user's state
    root; ``agenthooks.testing`` gives every run a fresh one. ``ancestry``
    (the ancestors' argv lists, nearest first) replaces ``/proc`` for
    prompt backfill. An ``--async`` run answers "no opinion" and runs the
    handlers before returning (``main`` detaches them instead)."""
    if getattr(_native, "NATIVE_UNAVAILABLE", None):  # the core cannot load: _failsafe.py
        from . import _failsafe

        return _failsafe.run(router, argv, payload)  # type: ignore[return-value]
    args = _native.launch(list(argv), state_dir=state_dir, ancestry=ancestry)
    if isinstance(args, Response):
        return args
    if args.command == "serve":
        return Response(stderr=f"{args.warnings}agenthooks: `serve` runs only as a process\n", exit_code=2)
    prepared = _native.prepare(args, router.policy, payload)
    if isinstance(prepared, Response):
        return prepared
    return _complete(router, prepared)[0]


def _flush_quietly() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


def _read_frame(stream: IO[bytes], limit: int) -> Optional[Tuple[bytes, Optional[int]]]:
    """One line of at most ``limit`` bytes, without the newline (and a
    trailing CR), as ``(line, None)``; ``None`` at end of input; a longer
    line is skipped without being kept in memory: ``(first bytes, length)``
    (``agenthooks::serve::read_frame``)."""
    line = stream.readline(limit + 1)
    if not line:
        return None
    if len(line) > limit and not (len(line) == limit + 1 and line.endswith(b"\n")):
        head = line[: _native.SERVE_HEAD_BYTES]
        n = len(line)
        while not line.endswith(b"\n"):
            line = stream.readline(65536)
            if not line:
                break
            n += len(line)
        return head, (n - 1 if line.endswith(b"\n") else n)
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    return line, None


def _serve(router: Router, args: _native.RunArgs, stdin: IO[bytes], write: Callable[[bytes], None]) -> int:
    """The serve loop: a driver over the core's serve bridge. The reader
    feeds lines while the bridge wants input; each job the bridge hands
    out runs on a thread of its own (inline when no user code runs for its
    event), which reports its outcome and writes the reply; one watchdog
    thread reports the jobs whose handlers miss their deadline (they are
    abandoned). Getting an output from the bridge and writing its frames
    (by ``write``, one call per output) is one step under the output lock;
    then its jobs start. Returns the exit code."""
    import heapq
    import threading
    import time

    try:
        bridge = _native.Bridge(args, router.policy)
    except AgentHooksError as e:
        sys.stderr.write(f"agenthooks: {e.code}: {e}\n")
        return 2
    changed = threading.Condition()  # the reader waits on it: room to read, idle
    alarm = threading.Condition()  # the watchdog waits on it: the earliest deadline
    out_lock = threading.Lock()
    active = [0]  # jobs handed out whose reply is not written yet
    # The watchdog's deadlines: (due, job id, state), state 0 running,
    # 1 answered, 2 abandoned.
    timers: List[Tuple[float, int, List[int]]] = []
    watching: List[bool] = []  # [stop?] once the watchdog runs

    def emit(call: Callable[[], _Out], settled: bool) -> None:
        # The bridge call and the write of its frames are one step under
        # the output lock: a reply handed out and not yet written could
        # otherwise be overtaken by a later reply of its session that
        # another thread got from the bridge meanwhile.
        todo = [(call, settled)]
        while todo:
            call, done = todo.pop(0)
            with out_lock:
                frames, err, ready = call()
                if frames:
                    write(frames)
            if err:
                try:
                    sys.stderr.write(err)
                    sys.stderr.flush()
                except (OSError, ValueError):
                    pass
            for job in ready:
                with changed:
                    active[0] += 1
                now = start(job)
                if now is not None:
                    todo.append((now, True))
            if done:
                with changed:
                    active[0] -= 1
                    changed.notify()

    def finish(job_id: int, outcome: _Outcome) -> _Out:
        try:
            if isinstance(outcome, Decision):
                return bridge.finish(job_id, outcome)
            return bridge.finish_error(job_id, outcome or RuntimeError("no outcome"))
        except BaseException as e:  # a bad decision object, say: still answered
            return bridge.finish_error(job_id, e)

    def answer(job_id: int, event: Event, state: List[int]) -> None:
        outcome: _Outcome
        try:
            outcome = router.decide(event)
        except BaseException as e:  # the fail policy answers it
            outcome = e
        with alarm:
            mine = state[0] == 0
            state[0] = max(state[0], 1)
        if mine:
            emit(lambda: finish(job_id, outcome), True)
        else:
            bridge.abandoned_done(job_id)  # the watchdog answered it

    def start(job: Tuple[int, Event, int]) -> Optional[Callable[[], _Out]]:
        job_id, event, deadline_ms = job
        if not _runs_user_code(router, event):
            # No user code runs for this event: nothing can hang.
            outcome: _Outcome
            try:
                outcome = router.decide(event)
            except BaseException as e:
                outcome = e
            return lambda: finish(job_id, outcome)
        state = [0]
        entry = (time.monotonic() + deadline_ms / 1000.0, job_id, state)
        with alarm:
            if len(timers) > 64 and len(timers) > 4 * active[0]:
                # Drop the deadlines of answered jobs (they wait for their
                # due time otherwise).
                timers[:] = [t for t in timers if t[2][0] == 0]
                heapq.heapify(timers)
            heapq.heappush(timers, entry)
            if not watching:
                watching.append(False)
                threading.Thread(target=watch, daemon=True, name="agenthooks-watchdog").start()
            elif timers[0] is entry:
                alarm.notify()  # the earliest deadline now: wake the watchdog
        _thread.start_new_thread(answer, (job_id, event, state))
        return None

    def watch() -> None:
        while True:
            expired: List[int] = []
            with alarm:
                while True:
                    now = time.monotonic()
                    while timers and (timers[0][2][0] != 0 or timers[0][0] <= now):
                        _, job_id, state = heapq.heappop(timers)
                        if state[0] == 0:
                            state[0] = 2
                            expired.append(job_id)
                    if expired:
                        break
                    if watching[0] and not timers:
                        return
                    alarm.wait(min(timers[0][0] - now, _thread.TIMEOUT_MAX) if timers else None)
            for job_id in expired:
                emit(lambda: bridge.finish_timeout(job_id), True)

    limit = min(bridge.max_line, sys.maxsize - 1)
    while True:
        with changed:
            while not bridge.wants_input():
                changed.wait()
        frame = _read_frame(stdin, limit)
        if frame is None:
            break
        line, too_long = frame
        emit(lambda: bridge.feed(line, too_long), False)
    with changed:
        while not bridge.idle() or active[0]:
            changed.wait()
    with alarm:
        if watching:
            watching[0] = True
            alarm.notify()
    return 0


def main(router: Router, argv: Optional[Sequence[str]] = None) -> NoReturn:
    """The whole author-side run of a Python hook program: parses argv
    (``<program> agenthooks run --provider=<id> ...``), reads the payload
    from stdin, runs the router within the deadline, writes the agent's
    answer and exits with its exit code."""
    if getattr(_native, "NATIVE_UNAVAILABLE", None):  # the core cannot load: _failsafe.py
        from . import _failsafe

        _failsafe.main(router, argv)
    argv = list(sys.argv if argv is None else argv)
    args = _native.launch(argv)
    if isinstance(args, Response):
        # No `agenthooks` word (usage, 64), `serve` with a bad value (2),
        # or `--help` (the usage on stdout, 0).
        sys.stderr.write(args.stderr)
        sys.stdout.write(args.stdout)
        _flush_quietly()
        sys.exit(args.exit_code)
    _flush_quietly()
    guard = _native.StdoutGuard()
    sys.stdout = sys.stderr
    if args.command == "serve":
        if args.warnings:
            sys.stderr.write(args.warnings)
        # NDJSON over stdio for the OpenCode / OpenClaw plugin bridges.
        def write(frames: bytes) -> None:
            _flush_quietly()
            guard.write_answer(frames)

        try:
            code = _serve(router, args, sys.stdin.buffer, write)
        except AgentHooksError:  # the plugin closed our stdout
            code = 1
        _flush_quietly()
        # Abandoned (timed-out) handlers must not keep the process alive.
        os._exit(code)
    prepared = _native.prepare(args, router.policy)
    finished = True
    if isinstance(prepared, Response):
        resp = prepared
    else:
        resp, finished = _complete(router, prepared, _program_argv())
    if resp.stderr:
        try:
            sys.stderr.write(resp.stderr)
        except (OSError, ValueError):
            pass
    _flush_quietly()
    code = resp.exit_code
    try:
        guard.write_answer(resp.stdout.encode())
    except AgentHooksError:
        code = 1
    if not finished:
        # A hung handler must not keep the process alive: the answer is
        # written and flushed, so leave now.
        _flush_quietly()
        os._exit(code)
    sys.exit(code)
