"""The author-side run: argv/stdin in, the agent's answer out.

``main(router)`` is the whole program of a Python hook. It follows the
core's three steps (``agenthooks::runtime``): ``prepare`` (provider, stdin,
decode, loop guard; an undecodable payload is answered right there per the
fail policy), the router's handlers on a worker thread within the deadline
(a hung handler is abandoned; an exception or a timeout goes to the fail
policy), then ``complete`` (encode, degrade, record continuations).

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
    from typing import List, NoReturn, Optional, Sequence, Tuple, Union

    from ._native import Event, Invocation
    from .router import Router

    _Outcome = Union[Decision, BaseException, None]

__all__ = ["main", "run"]


def _usage(argv: Sequence[str]) -> str:
    prog = argv[0] if argv else "<program>"
    return (
        "agenthooks: this program is a coding-agent hook; run it as "
        f"`{prog} agenthooks run --provider=<agent>` with the payload on stdin\n"
    )


def _decide_within(router: Router, event: Event, deadline_ms: int) -> Tuple[_Outcome, bool]:
    """Runs the router on a worker thread; returns (decision or exception,
    finished). An unfinished worker is abandoned: like a daemon thread it
    never keeps the process alive (a `_thread` thread: `threading` costs
    milliseconds to import)."""
    box: List[_Outcome] = []
    done = _thread.allocate_lock()
    done.acquire()

    def work() -> None:
        try:
            box.append(router.decide(event))
        except BaseException as e:  # the fail policy answers it
            box.append(e)
        finally:
            done.release()

    _thread.start_new_thread(work, ())
    if not done.acquire(True, min(deadline_ms / 1000.0, _thread.TIMEOUT_MAX)):
        return None, False
    return box[0], True


def _complete(router: Router, inv: Invocation) -> Tuple[Response, bool]:
    outcome, finished = _decide_within(router, inv.event, inv.deadline_ms)
    if not finished:
        return inv.complete_timeout(), False
    if isinstance(outcome, Decision):
        return inv.complete(outcome), True
    return inv.complete_error(outcome if outcome is not None else RuntimeError("no outcome")), True


def _prepare_args(argv: Sequence[str]) -> Union[_native.RunArgs, Response]:
    try:
        args = _native.parse_args(list(argv))
    except AgentHooksError as e:
        # A config we cannot read: say so, answer "no opinion".
        return Response(stderr=f"agenthooks: {e.code}: {e}\n", exit_code=0)
    if args is None:
        return Response(stderr=_usage(argv), exit_code=64)
    return args


def run(router: Router, argv: Sequence[str], payload: Union[bytes, str]) -> Response:
    """One hook invocation in-process (for tests and embedding): what
    ``main`` would answer for ``argv`` and this stdin payload, without
    touching the process's stdout or exiting. A hung handler is abandoned
    on its daemon thread."""
    args = _prepare_args(argv)
    if isinstance(args, Response):
        return args
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


def main(router: Router, argv: Optional[Sequence[str]] = None) -> NoReturn:
    """The whole author-side run of a Python hook program: parses argv
    (``<program> agenthooks run --provider=<id> ...``), reads the payload
    from stdin, runs the router within the deadline, writes the agent's
    answer and exits with its exit code."""
    argv = list(sys.argv if argv is None else argv)
    args = _prepare_args(argv)
    if isinstance(args, Response):
        sys.stderr.write(args.stderr)
        _flush_quietly()
        sys.exit(args.exit_code)
    _flush_quietly()
    guard = _native.StdoutGuard()
    sys.stdout = sys.stderr
    prepared = _native.prepare(args, router.policy)
    finished = True
    if isinstance(prepared, Response):
        resp = prepared
    else:
        resp, finished = _complete(router, prepared)
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
