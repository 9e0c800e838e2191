package dev.agenthooks

import dev.agenthooks.core.AgentHooksException

/**
 * An agenthooks failure with its stable code (`invalid_json`,
 * `handler_error`, ...: docs/errors.md). Throw one from a handler to fail
 * with a given code; any other exception fails it with `handler_error`.
 */
open class AgentHooksError(val code: String, message: String, cause: Throwable? = null) :
    RuntimeException(message, cause) {
    constructor(message: String) : this("handler_error", message)
}

/** The stable code id of a native error (`invalid_json`, ...). */
val AgentHooksException.code: String
    get() = when (this) {
        is AgentHooksException.InvalidJson -> "invalid_json"
        is AgentHooksException.InvalidUtf8 -> "invalid_utf8"
        is AgentHooksException.NotAnObject -> "not_an_object"
        is AgentHooksException.MissingEvent -> "missing_event"
        is AgentHooksException.WrongType -> "wrong_type"
        is AgentHooksException.TooLarge -> "too_large"
        is AgentHooksException.TooDeep -> "too_deep"
        is AgentHooksException.UnknownProvider -> "unknown_provider"
        is AgentHooksException.UnknownEventSpelling -> "unknown_event_spelling"
        is AgentHooksException.InvalidDecision -> "invalid_decision"
        is AgentHooksException.UnsupportedDecision -> "unsupported_decision"
        is AgentHooksException.LossyUpdate -> "lossy_update"
        is AgentHooksException.HandlerException -> "handler_error"
        is AgentHooksException.HandlerTimeout -> "handler_timeout"
        is AgentHooksException.Io -> "io"
        is AgentHooksException.Panic -> "panic"
        is AgentHooksException.InvalidArgument -> "invalid_argument"
    }

/** Runs a native call, turning its error into an [AgentHooksError]. */
internal inline fun <T> native(f: () -> T): T =
    try {
        f()
    } catch (e: AgentHooksException) {
        throw AgentHooksError(e.code, e.message ?: e.code, e)
    }

/** The code of any failure a handler raised. */
internal fun codeOf(t: Throwable): String = when (t) {
    is AgentHooksError -> t.code
    is AgentHooksException -> t.code
    else -> "handler_error"
}

/** The message of any failure a handler raised. */
internal fun messageOf(t: Throwable): String = when (t) {
    is AgentHooksError -> t.message ?: t.code
    else -> t.message ?: t.toString()
}
