package dev.agenthooks

/**
 * A hook's decision plus modifiers: immutable; the `with*` methods return
 * a copy. It crosses to the core as its canonical JSON (docs/canonical-json.md).
 */
class Decision private constructor(private val fields: Map<String, Any?>) {
    /** The kind (`no_decision`, `allow`, `deny`, ...). */
    val kind: String get() = fields["kind"] as String

    /** The reason shown to the model, if any. */
    val reason: String? get() = fields["reason"] as String?

    /** The context lines, in order. */
    @Suppress("UNCHECKED_CAST")
    val context: List<String> get() = (fields["context"] as List<String>?) ?: emptyList()

    /** A member of the decision JSON (`instruction`, `updated_input`, ...). */
    operator fun get(field: String): Any? = fields[field]

    private fun with(key: String, value: Any?): Decision =
        Decision(LinkedHashMap(fields).also { if (value == null) it.remove(key) else it[key] = value })

    fun withReason(reason: String) = with("reason", reason)
    fun withContext(context: String) = with("context", this.context + context)
    fun withSystemMessage(message: String) = with("system_message", message)
    fun withBlockReason(message: String) = with("block_reason", message)
    fun withStopAgent(reason: String? = null) =
        with("stop_agent", if (reason == null) emptyMap<String, Any?>() else mapOf("reason" to reason))
    /** A whole replacement tool input (JSON values, see [Json]). */
    fun withUpdatedInput(input: Map<String, Any?>) = with("updated_input", LinkedHashMap(input))
    /**
     * An RFC 7396 merge patch against the tool input as the agent sent it
     * (JSON values; `null` removes a key): the core renders it as each
     * agent's whole-object rewrite, and the router's fold composes the
     * patches of stacked handlers (conflicting keys: [rewriteConflicts]).
     */
    fun withPatchInput(patch: Map<String, Any?>) = with("patch_input", LinkedHashMap(patch))

    /** Where stacked handlers' rewrites disagreed (JSON pointers such as `/command`; set by the router's fold). */
    @Suppress("UNCHECKED_CAST")
    val rewriteConflicts: List<String> get() = (fields["rewrite_conflicts"] as List<String>?) ?: emptyList()

    /** Members merged verbatim into the agent's answer. */
    fun withNative(native: Map<String, Any?>) = with("native", LinkedHashMap(native))

    /** Whether this decision expresses no opinion (`no_decision`, `observed`). */
    val isNeutral: Boolean get() = kind == "no_decision" || kind == "observed"

    /** The canonical decision JSON. */
    fun toJson(): String = Json.write(fields)

    override fun equals(other: Any?) = other is Decision && Json.same(fields, other.fields)
    override fun hashCode() = toJson().hashCode()
    override fun toString() = toJson()

    companion object {
        internal fun of(kind: String, vararg more: Pair<String, Any?>): Decision =
            Decision(linkedMapOf<String, Any?>("kind" to kind).also { m -> more.forEach { (k, v) -> if (v != null) m[k] = v } })

        /** A decision from its JSON, checked by the core. */
        fun fromJson(json: String): Decision {
            val normalized = native { dev.agenthooks.core.normalizeDecision(json) }
            @Suppress("UNCHECKED_CAST")
            return Decision(Json.parse(normalized) as Map<String, Any?>)
        }
    }
}

/** No opinion: the agent proceeds as it would without the hook. */
fun noDecision() = Decision.of("no_decision")
/** Approve (skips the user's confirmation where the agent has one). */
fun allow() = Decision.of("allow")
/** Block, telling the model why. */
fun deny(reason: String) = Decision.of("deny", "reason" to reason)
/** Ask the user (degrades per the policy where the agent cannot ask). */
fun ask(reason: String) = Decision.of("ask", "reason" to reason)
/** Leave it to the agent's own permission flow. */
fun defer() = Decision.of("defer")
/** Let a prompt through. */
fun acceptPrompt() = Decision.of("accept_prompt")
/** Block a prompt, telling the user why. */
fun blockPrompt(reason: String) = Decision.of("block_prompt", "reason" to reason)
/** Let the agent stop. */
fun finish() = Decision.of("finish")
/** Keep the agent going with an instruction. */
fun continueWith(instruction: String) = Decision.of("continue", "instruction" to instruction)
/** Seen, no opinion (observers). */
fun observed() = Decision.of("observed")
/** Flag a tool's output to the model. */
fun flagOutput(reason: String) = Decision.of("flag_output", "reason" to reason)
/** Replace a tool's output (a JSON value, see [Json]). */
fun replaceOutput(output: Any?) = Decision.of("replace_output", "replaced_output" to output)
