package dev.agenthooks

/**
 * What a hook declares about failure and degradation. `null` members keep
 * the core's defaults (fail open, degrade, ask falls back to deny,
 * continuation cap 5, deadline from the agent's timeout).
 */
data class Policy(
    /** `open` or `closed`: what an error or timeout answers. */
    val fail: String? = null,
    /** `degrade` or `strict`: a decision the agent cannot express. */
    val unsupported: String? = null,
    /** `deny` or `no_decision`: what `ask` becomes where the agent cannot ask. */
    val askFallback: String? = null,
    /** Maximum consecutive `continue` decisions on stop events (0: none). */
    val continuationCap: Int? = null,
    /** The handler deadline in milliseconds. */
    val timeoutMs: Long? = null,
    /** `deny`, `no_decision` or `native`: what `ask` becomes in a session known to be headless. */
    val headlessAsk: String? = null,
) {
    /** The (partial) policy JSON the core reads. */
    fun toJson(): String = Json.write(
        linkedMapOf<String, Any?>().also { m ->
            fail?.let { m["fail"] = it }
            unsupported?.let { m["unsupported"] = it }
            askFallback?.let { m["ask_fallback"] = it }
            continuationCap?.let { m["continuation_cap"] = it }
            timeoutMs?.let { m["timeout_ms"] = it }
            headlessAsk?.let { m["headless_ask"] = it }
        },
    )

    companion object {
        /** The defaults with `fail = closed`. */
        fun failClosed() = Policy(fail = "closed")
        /** The defaults (fail open). */
        fun failOpen() = Policy(fail = "open")
    }
}
