package dev.agenthooks

import java.util.concurrent.atomic.AtomicReference
import kotlinx.coroutines.delay
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test

/** The idiomatic layer: errors keep their codes, the DSL, JSON, process run. */
class ApiTest {
    private val pre = """{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm install","n":1.50},"tool_use_id":"t1"}"""
    private val argv = listOf("hook", "agenthooks", "run", "--provider=claude-code")

    private fun code(f: () -> Unit): String = try {
        f()
        fail("no error") as Nothing
    } catch (e: AgentHooksError) {
        e.code
    }

    @Test
    fun errorsCarryTheCoreCodes() {
        assertEquals("invalid_json", code { Event.decode("claude-code", "{nope".toByteArray()) })
        assertEquals("unknown_provider", code { Event.decode("nobody", pre.toByteArray()) })
        assertEquals("too_large", code { Event.decode("claude-code", pre.toByteArray(), maxBytes = 10) })
        assertEquals("invalid_decision", code { Decision.fromJson("""{"kind":"maybe"}""") })
        assertEquals("unknown_event_spelling", code { Router().on("kind:nope") { noDecision() } })
        assertEquals("invalid_argument", code { Router(Policy(fail = "sideways")) })
        assertEquals("invalid_json", code { Json.parse("[1,]") })
    }

    @Test
    fun eventFacetsAndJson() {
        val e = Event.decode("claude-code", pre.toByteArray())
        assertEquals("tool.pre", e.kind)
        assertEquals("PreToolUse", e.nativeName)
        assertEquals("shell", e.tool!!.canonical)
        assertEquals("npm install", e.tool!!.command)
        assertEquals(JsonNumber("1.5"), e.tool!!.input["n"]) // as the core reads it
        assertEquals(pre, String(e.raw))
        assertTrue(e.toJson().endsWith(",\"raw\":$pre}"))
        val r = e.respond(deny("no"))
        assertTrue(r.stdout, r.stdout.contains("\"permissionDecision\":\"deny\""))
    }

    @Test
    fun handlerFailuresGoThroughTheFailPolicyWithTheirCode() {
        val r = Router(Policy.failClosed()).onToolPre { throw AgentHooksError("lossy_update", "custom") }
        val resp = r.run(argv, pre.toByteArray())
        assertTrue(resp.stdout, resp.stdout.contains("deny"))
        assertTrue(resp.stderr, resp.stderr.contains("lossy_update"))
        val plain = Router(Policy.failClosed()).onToolPre { error("plain") }.run(argv, pre.toByteArray())
        assertTrue(plain.stderr, plain.stderr.contains("handler_error"))
    }

    @Test
    fun deadlineAbandonsASlowSuspendHandler() {
        val r = Router(Policy(fail = "closed", timeoutMs = 100)).onToolPreSuspend {
            delay(5_000)
            allow()
        }
        val t0 = System.nanoTime()
        val resp = r.run(argv, pre.toByteArray())
        assertTrue("answered at the deadline", System.nanoTime() - t0 < 3_000_000_000)
        assertTrue(resp.stderr, resp.stderr.contains("handler_timeout"))
        assertTrue(resp.stdout, resp.stdout.contains("deny"))
    }

    @Test
    fun updatedInputKeepsNumbersExactly() {
        val r = Router().onToolPre { e -> allow().withUpdatedInput(e.tool!!.input + ("command" to "npm ci")) }
        val resp = r.run(argv, pre.toByteArray())
        assertTrue(resp.stdout, resp.stdout.contains("\"updatedInput\":{\"command\":\"npm ci\",\"n\":1.5"))
    }

    @Test
    fun patchesComposeInTheCoresFold() {
        val r = Router()
            .onToolPre { noDecision().withPatchInput(mapOf("command" to "npm ci", "n" to null)) }
            .onToolPre { allow().withPatchInput(mapOf("command" to "npm ci --quiet")) }
        val d = r.decide(Event.decode("claude-code", pre.toByteArray()))
        assertEquals("allow", d.kind)
        assertEquals(listOf("/command"), d.rewriteConflicts)
        val resp = r.run(argv, pre.toByteArray())
        assertTrue(resp.stdout, resp.stdout.contains("\"updatedInput\":{\"command\":\"npm ci --quiet\"}"))
    }

    @Test
    fun nextOutsideItsMiddlewareFails() {
        val kept = AtomicReference<Pair<Event, Next>>()
        val r = Router().onToolPre { deny("inner") }.middleware { e, next ->
            kept.set(e to next)
            next(e).withContext("wrapped")
        }
        val d = r.decide(Event.decode("claude-code", pre.toByteArray()))
        assertEquals("deny", d.kind)
        assertEquals(listOf("wrapped"), d.context)
        val (e, next) = kept.get()
        assertEquals("handler_error", code { next(e) })
    }

    @Test
    fun mergesAndPredicates() {
        assertEquals("deny", mergeAll(allow(), deny("x"), noDecision()).kind)
        assertEquals("allow", mergeFirst(noDecision().withContext("c"), allow(), deny("x")).let { assertEquals(listOf("c"), it.context); it.kind })
        var seen: String? = null
        val r = Router().onGuarded("tool.pre", { t -> seen = t.command; t.name == "Bash" }) { deny("guarded") }
        assertEquals("deny", r.decide(Event.decode("claude-code", pre.toByteArray())).kind)
        assertEquals("npm install", seen)
        assertFalse(Router().onStop { finish() }.handles(Event.decode("claude-code", pre.toByteArray())))
    }

    @Test
    fun jsonRoundTrips() {
        val text = """{"a":[1,-0.5e3,true,null,"\u00e9\n\"x\""],"b":{}}"""
        assertEquals("""{"a":[1,-0.5e3,true,null,"é\n\"x\""],"b":{}}""", Json.write(Json.parse(text)))
        assertEquals("invalid_json", code { Json.parse("[".repeat(Json.MAX_DEPTH + 2)) })
    }
}
