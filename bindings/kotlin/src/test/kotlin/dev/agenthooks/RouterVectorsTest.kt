package dev.agenthooks

import java.util.Collections
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test

/** `fixtures/router/<case>.json` (the fold) and `fixtures/router/dispatch/<case>.json` (the dispatch rules) on the JVM. */
class RouterVectorsTest {
    private val pre = """{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1"}"""

    private fun checkOutcome(name: String, expect: Map<String, Any?>, got: Result<Decision>) {
        when {
            expect.containsKey("decision") && got.isSuccess -> {
                val want = Decision.fromJson(Json.write(expect["decision"]))
                assertEquals(name, Json.parse(want.toJson()), Json.parse(got.getOrThrow().toJson()))
            }
            expect.containsKey("error") && got.isFailure -> {
                val e = got.exceptionOrNull()
                assertTrue("$name: $e", e is AgentHooksError)
                assertEquals(name, Vectors.obj(expect["error"])["code"], (e as AgentHooksError).code)
            }
            else -> fail("$name: got ${got.getOrNull() ?: got.exceptionOrNull()}, want ${Json.write(expect)}")
        }
    }

    @Test
    fun foldVectors() {
        var total = 0
        var ran = 0
        for (f in Vectors.files("router")) {
            val c = Vectors.load(f)
            Vectors.strict(f.path, c, "name", "description", "mode", "handlers", "expect", "called")
            val name = Vectors.named(c, "router/", f)
            if (!Vectors.selected(name)) continue
            total++
            var calls = 0
            val hs: List<(Event) -> Decision> = Vectors.list(c["handlers"]).map { hv ->
                val h = Vectors.obj(hv)
                val d = h["decision"]?.let { Decision.fromJson(Json.write(it)) }
                val err = h["error"] as String?
                val handler: (Event) -> Decision = {
                    calls++
                    if (err != null) throw AgentHooksError(err) else d!!
                }
                handler
            }
            val r = Router()
            when (c["mode"]) {
                // Stacked registrations: the core's table folds them.
                "stack" -> hs.forEach { r.onToolPre(handler = it) }
                "all" -> r.onToolPre(handler = allOf(*hs.toTypedArray()))
                else -> fail("$name: unknown mode ${c["mode"]}")
            }
            val ev = Event.decode("claude-code", pre.toByteArray())
            checkOutcome(name, Vectors.obj(c["expect"]), runCatching { r.decide(ev) })
            assertEquals("$name: called", Vectors.int(c["called"]), calls)
            ran++
        }
        Vectors.report("router", ran, total)
    }

    @Test
    fun dispatchVectors() {
        var total = 0
        var ran = 0
        for (f in Vectors.files("router/dispatch")) {
            val c = Vectors.load(f)
            Vectors.strict(f.path, c, "name", "description", "event", "entries", "expect", "calls", "handles")
            val name = Vectors.named(c, "router/dispatch/", f)
            if (!Vectors.selected(name)) continue
            total++
            val evSpec = Vectors.obj(c["event"])
            val ev = Event.decode(evSpec["provider"] as String, Json.write(evSpec["payload"]).toByteArray())
            val log = Collections.synchronizedList(ArrayList<String>())
            val r = build(name, Vectors.list(c["entries"]).map { Vectors.obj(it) }, log)
            assertEquals("$name: handles", c["handles"], r.handles(ev))
            checkOutcome(name, Vectors.obj(c["expect"]), runCatching { r.decide(ev) })
            assertEquals("$name: calls", Vectors.list(c["calls"]), log.toList())
            ran++
        }
        Vectors.report("dispatch", ran, total)
    }

    private fun build(name: String, entries: List<Map<String, Any?>>, log: MutableList<String>): Router {
        val r = Router()
        for (e in entries) {
            Vectors.strict("$name entry", e, "id", "role", "on", "when", "guard", "async", "does")
            val id = e["id"] as String
            val does = Vectors.obj(e["does"])
            Vectors.strict("$name $id does", does, "decision", "error", "next", "return")
            when (e["role"]) {
                "observer" -> r.onAny {
                    log.add(id)
                    (does["error"] as String?)?.let { m -> throw AgentHooksError(m) }
                }
                "middleware" -> r.middleware { ev, next ->
                    log.add(id)
                    var inner: Decision? = null
                    var err: AgentHooksError? = null
                    repeat(does["next"]?.let { Vectors.int(it) } ?: 0) {
                        try {
                            val d = next(ev)
                            if (inner == null) inner = d
                        } catch (x: AgentHooksError) {
                            err = x
                        }
                    }
                    (does["error"] as String?)?.let { m -> throw AgentHooksError(m) }
                    when (val ret = does["return"]) {
                        "inner" -> inner ?: err?.let { throw it } ?: noDecision()
                        null -> noDecision()
                        else -> Decision.fromJson(Json.write(ret))
                    }
                }
                "handler" -> {
                    val body: suspend (Event) -> Decision = {
                        log.add(id)
                        val m = does["error"] as String?
                        when {
                            m != null -> throw AgentHooksError(m)
                            does["decision"] != null -> Decision.fromJson(Json.write(does["decision"]))
                            else -> noDecision()
                        }
                    }
                    val isAsync = e["async"] == true
                    val sync: (Event) -> Decision = { ev -> kotlinx.coroutines.runBlocking { body(ev) } }
                    val on = e["on"] as String
                    val w = e["when"] as String?
                    when {
                        w == "guard" -> {
                            val held = e["guard"] as Boolean
                            r.onGuarded(on, { held }, sync)
                        }
                        // The language's async callables: suspend handlers.
                        isAsync -> r.onSuspend(on, w, body)
                        else -> r.on(on, w, sync)
                    }
                }
                else -> fail("$name: unknown role ${e["role"]}")
            }
        }
        return r
    }
}
