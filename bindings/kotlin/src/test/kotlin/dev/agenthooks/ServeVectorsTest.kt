package dev.agenthooks

import java.io.ByteArrayOutputStream
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test

/** `fixtures/serve/<case>.json`: the serve loop (the core's bridge) with Kotlin handlers. */
class ServeVectorsTest {
    /** The vector router of fixtures/serve/README.md. */
    private fun vectorRouter(): Router = Router().onToolPre { e ->
        val cmd = e.tool?.command ?: ""
        when {
            "rm -rf" in cmd -> deny("destructive command")
            cmd == "fail" -> throw AgentHooksError("handler_error", "boom")
            cmd == "slow" -> {
                Thread.sleep(3000)
                noDecision()
            }
            cmd.startsWith("sleep ") && cmd.removePrefix("sleep ").toLongOrNull() != null -> {
                Thread.sleep(cmd.removePrefix("sleep ").toLong())
                noDecision()
            }
            else -> noDecision()
        }
    }

    private fun expand(v: Any?): Any? = when (v) {
        "\$VERSION" -> dev.agenthooks.core.version()
        is Map<*, *> -> v.entries.associate { (k, x) -> k to expand(x) }
        is List<*> -> v.map { expand(it) }
        else -> v
    }

    @Test
    fun everyServeVector() {
        var total = 0
        var ran = 0
        for (f in Vectors.files("serve")) {
            val c = Vectors.load(f)
            Vectors.strict(f.path, c, "name", "description", "provider", "args", "input", "output", "in_order")
            val name = Vectors.named(c, "serve/", f)
            if (!Vectors.selected(name)) continue
            total++
            val input = ByteArrayOutputStream()
            for (line in Vectors.list(c["input"])) {
                when {
                    line is String -> input.write(line.toByteArray())
                    line is Map<*, *> && line.containsKey("\$b64") -> input.write(Vectors.b64(line["\$b64"] as String))
                    line is Map<*, *> && line.containsKey("\$gen") -> {
                        val g = Vectors.obj(line["\$gen"])
                        input.write(((g["prefix"] as String) + (g["fill"] as String).repeat(Vectors.int(g["repeat"])) + (g["suffix"] as String)).toByteArray())
                    }
                    else -> input.write(Json.write(line).toByteArray())
                }
                input.write('\n'.code)
            }
            val argv = listOf("guard", "agenthooks", "serve", "--provider=${c["provider"]}") + Vectors.list(c["args"]).map { it as String }
            val out = String(vectorRouter().serve(argv, input.toByteArray()))
            val got = out.split('\n').filter { it.isNotEmpty() }.map { Json.parse(it) }
            val want = Vectors.list(c["output"]).map { expand(it) }
            val left = got.toMutableList()
            val missing = want.filter { w ->
                val i = left.indexOfFirst { Json.same(it, w) }
                if (i >= 0) left.removeAt(i)
                i < 0
            }
            if (missing.isNotEmpty() || left.isNotEmpty()) {
                fail("$name: replies differ\n unexpected: ${left.map { Json.write(it) }}\n missing: ${missing.map { Json.write(it) }}")
            }
            if (want.firstOrNull()?.let { it is Map<*, *> && it.containsKey("hello") } == true) {
                assertTrue("$name: the hello reply must come first: $out", Json.same(got.first(), want.first()))
            }
            for (order in Vectors.list(c["in_order"])) {
                val pos = Vectors.list(order).map { s -> got.indexOfFirst { (it as? Map<*, *>)?.get("seq")?.let { q -> Json.same(q, s) } == true } }
                assertTrue("$name: seqs $order out of order: $out", pos.none { it < 0 } && pos.zipWithNext().all { (a, b) -> a < b })
            }
            ran++
        }
        Vectors.report("serve", ran, total)
    }
}
