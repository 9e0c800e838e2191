package dev.agenthooks

import dev.agenthooks.core.DecodeOpts
import dev.agenthooks.core.HookEvent

/**
 * One hook event, decoded by the core. The common facets are properties;
 * [json] is the whole canonical event (docs/canonical-json.md).
 */
class Event internal constructor(internal val native: HookEvent) {
    /** The agent's id (`claude-code`, `codex`, ...). */
    val provider: String by lazy { native.provider() }
    /** The variant (`""`, `cli`, `ide`, ...). */
    val variant: String by lazy { native.variant() }
    /** The native event name, verbatim. */
    val nativeName: String by lazy { native.nativeName() }
    /** The unified kind (`tool.pre`, `agent.stop`, ...). */
    val kind: String by lazy { native.kind() }
    /** The tool call, for tool and permission events. */
    val tool: Tool? by lazy { native.toolName()?.let { Tool(this) } }
    /** The submitted prompt. */
    val prompt: String? by lazy { native.prompt() }
    /** The session id. */
    val sessionId: String by lazy { native.sessionId() }
    /** The working directory. */
    val cwd: String by lazy { native.cwd() }
    /** Whether the event comes from inside a subagent. */
    val isSubagent: Boolean by lazy { native.isSubagent() }
    /** Stop facts, for stop events. */
    val stop: Stop by lazy { Stop(native.stopFinalMessage(), native.stopPreviouslyContinued()) }
    /** The canonical JSON without `raw`, parsed. */
    @Suppress("UNCHECKED_CAST")
    val json: Map<String, Any?> by lazy { Json.parse(native.toJsonWithoutRaw()) as Map<String, Any?> }
    /** The payload bytes, verbatim. */
    val raw: ByteArray get() = native.raw()

    /** The canonical JSON, `raw` last. */
    fun toJson(): String = native.toJson()

    /** Encodes a decision into this agent's exact answer under a policy. */
    fun respond(decision: Decision = noDecision(), policy: Policy = Policy()): Response =
        Response.of(native { native.respond(decision.toJson(), policy.toJson()) })

    /** The fail policy's answer to an error while handling this event. */
    fun failResponse(code: String, message: String, policy: Policy = Policy()): Response =
        Response.of(native { native.failResponse(code, message, policy.toJson()) })

    override fun toString() = "Event($provider $nativeName $kind)"

    /** A tool call. */
    class Tool internal constructor(private val e: Event) {
        /** The native tool name. */
        val name: String by lazy { e.native.toolName() ?: "" }
        /** The canonical class (`shell`, `file.edit`, ...). */
        val canonical: String by lazy { e.native.canonical() ?: "other" }
        /** The shell command, or `""`. */
        val command: String by lazy { e.native.command() }
        /** The input object (JSON values, see [Json]). */
        @Suppress("UNCHECKED_CAST")
        val input: Map<String, Any?> by lazy { Json.parse(e.native.toolInputJson() ?: "{}") as Map<String, Any?> }
        override fun toString() = "Tool($name $canonical)"
    }

    /** Stop facts. */
    data class Stop(
        /** The agent's last message. */
        val finalMessage: String?,
        /** Whether a hook already kept the agent going once. */
        val previouslyContinued: Boolean,
    )

    companion object {
        /** Decodes an agent's hook payload into the unified event. */
        fun decode(
            provider: String,
            payload: ByteArray,
            variant: String? = null,
            event: String? = null,
            detection: String? = null,
            maxBytes: Long? = null,
        ): Event = Event(native { dev.agenthooks.core.decode(provider, payload, DecodeOpts(variant, event, detection, maxBytes?.toULong())) })
    }
}

/** The agent's answer, exactly. */
data class Response(
    val stdout: String,
    val stderr: String,
    val exitCode: Int,
    val notes: List<Note> = emptyList(),
) {
    /** What was degraded or dropped, and why. */
    data class Note(val code: String, val from: String?, val to: String?, val detail: String?)

    companion object {
        internal fun of(r: dev.agenthooks.core.Response) =
            Response(r.stdout, r.stderr, r.exitCode, r.notes.map { Note(it.code, it.from, it.to, it.detail) })
    }
}
