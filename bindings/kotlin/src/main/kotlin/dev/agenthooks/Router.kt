package dev.agenthooks

import dev.agenthooks.core.HookEvent
import dev.agenthooks.core.Outcome
import dev.agenthooks.core.ToolInfo
import kotlinx.coroutines.runBlocking

/** What a `when` predicate sees of a tool call. */
typealias ToolFacts = ToolInfo

/** The rest of the pipeline, handed to middleware: call it at most once. */
fun interface Next {
    /** Runs the rest of the pipeline for [event]; throws [AgentHooksError] when it failed. */
    operator fun invoke(event: Event): Decision
}

/**
 * A router: handlers by kind or native event name, observers, middleware
 * and the policy. Registration is Kotlin; the dispatch (order, `when`,
 * the fold of stacked handlers, middleware and observer rules) is the
 * core's table, the same as for every other language.
 *
 * ```
 * val router = Router(Policy.failClosed())
 * router.onToolPre { e -> if ("rm -rf" in e.tool!!.command) deny("no") else noDecision() }
 * fun main(args: Array<String>) = router.main(args)
 * ```
 *
 * Handlers run on the core's handler thread, within the deadline;
 * `suspend` handlers ([onToolPreSuspend], [onSuspend]) run there in
 * `runBlocking`. A handler that throws fails with its code
 * ([AgentHooksError.code], else `handler_error`) and the policy's fail
 * posture answers.
 */
class Router(policy: Policy = Policy()) {
    internal val native: dev.agenthooks.core.Router = native { dev.agenthooks.core.Router(policy.toJson()) }

    /** Replaces the policy. */
    fun policy(policy: Policy): Router = apply { native { native.setPolicy(policy.toJson()) } }

    /**
     * A handler on a kind (`tool.pre`, any spelling) or `native:<name>`;
     * [when] (kind handlers only): `canonical:<class>` or `names:<A|B>`.
     */
    fun on(on: String, `when`: String? = null, handler: (Event) -> Decision): Router = apply {
        native { native.on(on, `when`, handlerOf(handler)) }
    }

    /** A `suspend` handler (run in `runBlocking` on the handler thread). */
    fun onSuspend(on: String, `when`: String? = null, handler: suspend (Event) -> Decision): Router =
        on(on, `when`) { e -> runBlocking { handler(e) } }

    /** A handler on a native event name (runs before kind handlers). */
    fun onNative(nativeName: String, handler: (Event) -> Decision) = on("native:$nativeName", null, handler)

    /** A handler on a kind that runs only for tool calls [predicate] admits. */
    fun onGuarded(kind: String, predicate: (ToolFacts) -> Boolean, handler: (Event) -> Decision): Router = apply {
        val p = object : dev.agenthooks.core.ToolPredicate {
            override fun test(tool: ToolInfo): Boolean = try {
                predicate(tool)
            } catch (t: Throwable) {
                false
            }
        }
        native { native.onGuarded(kind, p, handlerOf(handler)) }
    }

    fun onToolPre(`when`: String? = null, handler: (Event) -> Decision) = on("tool.pre", `when`, handler)
    fun onToolPreSuspend(`when`: String? = null, handler: suspend (Event) -> Decision) = onSuspend("tool.pre", `when`, handler)
    fun onToolPost(`when`: String? = null, handler: (Event) -> Decision) = on("tool.post", `when`, handler)
    fun onToolError(`when`: String? = null, handler: (Event) -> Decision) = on("tool.error", `when`, handler)
    fun onPermissionRequest(`when`: String? = null, handler: (Event) -> Decision) = on("permission.request", `when`, handler)
    fun onPrompt(handler: (Event) -> Decision) = on("prompt.submitted", null, handler)
    fun onStop(handler: (Event) -> Decision) = on("agent.stop", null, handler)
    fun onSubagentStop(handler: (Event) -> Decision) = on("subagent.stop", null, handler)
    fun onSessionStart(handler: (Event) -> Decision) = on("session.start", null, handler)

    /** An observer of every event: never gates; if it throws, a warning goes to stderr. */
    fun onAny(observer: (Event) -> Unit): Router = apply {
        native.onAny(object : dev.agenthooks.core.Observer {
            override fun observe(event: HookEvent): String? = try {
                observer(Event(event))
                null
            } catch (t: Throwable) {
                messageOf(t)
            }
        })
    }

    /**
     * Middleware around the handlers (outermost first): return another
     * decision to replace theirs, skip [Next] to short-circuit. Call
     * [Next] on the calling thread, before returning, at most once.
     */
    fun middleware(mw: (Event, Next) -> Decision): Router = apply {
        native.middleware(object : dev.agenthooks.core.Middleware {
            override fun handle(event: HookEvent, next: dev.agenthooks.core.Next): Outcome = outcome {
                mw(Event(event)) { e ->
                    val json = native { next.call(e.native) }
                    if (json == null) noDecision() else Decision.fromJson(json)
                }
            }
        })
    }

    /** Whether a handler is registered for the event's kind or native name. */
    fun handles(event: Event): Boolean = native.handles(event.native)

    /** The winning decision for an event (no wire encoding, no deadline). */
    fun decide(event: Event): Decision = Decision.fromJson(native { native.decide(event.native) })

    /**
     * A hook process's whole answer for [argv] (program first) and [stdin],
     * in-process (tests, embedding); [stateDir]: where cross-process state
     * lives, else the user's.
     */
    fun run(argv: List<String>, stdin: ByteArray, stateDir: String? = null): Response =
        Response.of(native.run(argv, stdin, stateDir))

    /** The `serve` loop in-process over all [input] lines: the reply lines written. */
    fun serve(argv: List<String>, input: ByteArray): ByteArray = native { native.serve(argv, input) }

    /**
     * The whole hook program: reads stdin, runs the router (or the
     * `serve` loop), writes the agent's answer on stdout (stray prints
     * of handlers go to stderr) and exits with its code. [args] as `main`
     * gets them (without the program name).
     */
    fun main(args: Array<String>): Nothing {
        val program = System.getProperty("agenthooks.program") ?: "kotlin-hook"
        val code = native.runProcess(listOf(program) + args)
        System.out.flush()
        System.err.flush()
        kotlin.system.exitProcess(code)
    }

    private companion object {
        fun outcome(f: () -> Decision): Outcome = try {
            Outcome.Decided(f().toJson())
        } catch (t: Throwable) {
            Outcome.Failed(codeOf(t), messageOf(t))
        }

        fun handlerOf(h: (Event) -> Decision) = object : dev.agenthooks.core.Handler {
            override fun handle(event: HookEvent): Outcome = outcome { h(Event(event)) }
        }
    }
}

/** The most restrictive of several decisions. */
fun mergeAll(vararg decisions: Decision): Decision =
    Decision.fromJson(native { dev.agenthooks.core.mergeAll(decisions.map { it.toJson() }) })

/** The first conclusive of several decisions, the neutral ones before it folded in. */
fun mergeFirst(vararg decisions: Decision): Decision =
    Decision.fromJson(native { dev.agenthooks.core.mergeFirst(decisions.map { it.toJson() }) })

/**
 * Runs every handler and keeps the most restrictive decision (a failing
 * handler fails the whole). Register the result as one handler.
 */
fun allOf(vararg handlers: (Event) -> Decision): (Event) -> Decision = { e ->
    mergeAll(*handlers.map { it(e) }.toTypedArray())
}
