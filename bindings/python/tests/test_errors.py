"""Exceptions: the Python code table is the core's, and each path raises
the class and code the core reports."""

from __future__ import annotations

import json

import pytest

import agenthooks as ah
from agenthooks import _native

BAD_INPUT = {
    "invalid_json", "invalid_utf8", "not_an_object", "missing_event", "wrong_type",
    "too_large", "too_deep", "unknown_provider", "unknown_event_spelling",
    "invalid_decision", "invalid_argument",
}
PRE = b'{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}'


def test_code_table_equals_core_error_codes() -> None:
    # Same ids, same (numeric) order as ErrorCode::ALL.
    assert list(ah.CODES) == _native.error_codes()


def test_every_class_is_an_agenthooks_error_and_bad_input_is_a_value_error() -> None:
    for code, cls in ah.CODES.items():
        exc = ah.errors._from_native(code, "msg", None)
        assert type(exc) is cls
        assert isinstance(exc, ah.AgentHooksError) and isinstance(exc, Exception)
        assert exc.code == code and exc.message == "msg" and str(exc) == "msg"
        assert isinstance(exc, ValueError) == (code in BAD_INPUT), code
    assert isinstance(ah.errors._from_native("handler_timeout", "", None), TimeoutError)
    assert isinstance(ah.errors._from_native("io", "", None), OSError)
    # A code from a newer core still raises the base class with its code.
    future = ah.errors._from_native("brand_new", "m", None)
    assert type(future) is ah.AgentHooksError and future.code == "brand_new"


def test_user_constructed_errors_take_the_class_code() -> None:
    assert ah.InvalidPayloadError("x").code == "invalid_json"
    assert ah.HandlerTimeoutError("x").code == "handler_timeout"
    assert ah.AgentHooksError("x").code == "handler_error"
    assert ah.AgentHooksError("x", code="panic").code == "panic"


@pytest.mark.parametrize(
    "call, cls, code",
    [
        (lambda: ah.decode("claude-code", b"{not json"), ah.InvalidPayloadError, "invalid_json"),
        (lambda: ah.decode("claude-code", b"\xff\xfe"), ah.InvalidPayloadError, "invalid_utf8"),
        (lambda: ah.decode("codex", b"[1]"), ah.InvalidPayloadError, "not_an_object"),
        (lambda: ah.decode("claude-code", b"{}"), ah.InvalidPayloadError, "missing_event"),
        (lambda: ah.decode("claude-code", b'{"hook_event_name":"PreToolUse","x":1}', max_bytes=3),
         ah.InvalidPayloadError, "too_large"),
        (lambda: ah.decode("claude-code", b"[" * 5000 + b"]" * 5000), ah.InvalidPayloadError, "not_an_object"),
        (lambda: ah.decode("vim", PRE), ah.InvalidArgumentError, "unknown_provider"),
        (lambda: ah.parse_kind("launch"), ah.InvalidArgumentError, "unknown_event_spelling"),
        (lambda: ah.Decision.from_json('{"kind":"deny","why":"x"}'), ah.InvalidDecisionError, "invalid_decision"),
        (lambda: ah.Decision("maybe"), ah.InvalidDecisionError, "invalid_decision"),
        (lambda: ah.Policy(fail="maybe"), ah.InvalidArgumentError, "invalid_argument"),
        (lambda: ah.Policy.from_json('{"fial":"closed"}'), ah.InvalidArgumentError, "invalid_argument"),
        (lambda: ah.deny("x").validate_for("agent.stop"), ah.InvalidDecisionError, "invalid_decision"),
        (lambda: _native.parse_args(["g", "agenthooks", "run", "--bogus=1"]), ah.InvalidArgumentError,
         "invalid_argument"),
        (lambda: ah.respond(ah.decode("codex", PRE), ah.ask("a"), ah.Policy(unsupported="strict")),
         ah.UnsupportedDecisionError, "unsupported_decision"),
    ],
)
def test_core_errors_raise_their_class_and_code(call, cls, code) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(cls) as info:
        call()
    assert info.value.code == code
    assert info.value.message  # the core's text


def test_an_error_handed_back_to_the_core_keeps_its_code() -> None:
    with pytest.raises(ah.AgentHooksError) as info:
        ah.decode("claude-code", b"{not json")
    r = ah.fail_response("claude-code", None, info.value, ah.Policy(fail="closed"))
    assert (r.exit_code, r.notes[0].code, r.notes[0].from_) == (2, "fail_closed", "invalid_json")
    assert "invalid JSON" in r.stderr


def test_any_other_exception_is_a_handler_error() -> None:
    r = ah.fail_response("codex", ah.decode("codex", PRE), KeyError("db"), ah.Policy(fail="closed"))
    assert r.notes[0].from_ == "handler_error"
    assert json.loads(r.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "KeyError" in r.stderr
    # An AgentHooksError raised by an author keeps the code it names.
    r = ah.fail_response("codex", None, ah.AgentHooksError("slow", code="handler_timeout"))
    assert r.notes[0].from_ == "handler_timeout"
