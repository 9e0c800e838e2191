package dev.agenthooks

import java.io.ByteArrayOutputStream
import java.nio.file.Files
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test

/** `fixtures/runtime/<case>.json`: whole hook calls (argv + stdin -> answer) through the Kotlin run entry. */
class RuntimeVectorsTest {
    @Test
    fun everyRuntimeVector() {
        var total = 0
        var ran = 0
        val state = Files.createTempDirectory("ah-kt-runtime").toFile()
        try {
            for (f in Vectors.files("runtime")) {
                val c = Vectors.load(f)
                Vectors.strict(f.path, c, "name", "description", "argv", "router", "stdin", "stdin_text", "stdin_b64", "stdin_parts", "expect")
                val name = Vectors.named(c, "runtime/", f)
                if (!Vectors.selected(name)) continue
                total++
                val policy = Json.parse(Json.write(c["router"] ?: emptyMap<String, Any?>()))
                // The vector guard (fixtures/runtime/README.md), under the vector's policy.
                val r = Router()
                r.native.setPolicy(Json.write(policy))
                r.onToolPre { e ->
                    val cmd = e.tool?.command ?: ""
                    when {
                        "rm -rf" in cmd -> deny("vector guard: rm -rf is not allowed")
                        "needs-approval" in cmd -> ask("vector guard: needs approval")
                        else -> noDecision()
                    }
                }
                val stdin = stdin(name, c)
                @Suppress("UNCHECKED_CAST")
                val resp = r.run(c["argv"] as List<String>, stdin, state.path)
                val x = Vectors.obj(c["expect"])
                Vectors.strict("$name expect", x, "stdout", "stdout_json", "stderr_contains", "exit_code")
                assertEquals("$name: exit code (stderr ${resp.stderr})", Vectors.int(x["exit_code"]), resp.exitCode)
                when {
                    x.containsKey("stdout_json") -> if (!Json.same(Json.parse(resp.stdout), x["stdout_json"])) {
                        fail("$name: stdout\n got:  ${resp.stdout}\n want: ${Json.write(x["stdout_json"])}")
                    }
                    x.containsKey("stdout") -> assertEquals("$name: stdout", x["stdout"], resp.stdout)
                    else -> fail("$name: expect needs stdout or stdout_json")
                }
                for (s in Vectors.list(x["stderr_contains"])) {
                    assertTrue("$name: stderr lacks $s: ${resp.stderr}", resp.stderr.contains(s as String))
                }
                ran++
            }
        } finally {
            state.deleteRecursively()
        }
        Vectors.report("runtime", ran, total)
    }

    private fun stdin(name: String, c: Map<String, Any?>): ByteArray {
        val forms = listOf("stdin", "stdin_text", "stdin_b64", "stdin_parts").filter { c.containsKey(it) }
        assertTrue("$name: at most one stdin form", forms.size <= 1)
        return when (forms.firstOrNull()) {
            null -> ByteArray(0)
            "stdin" -> Json.write(c["stdin"]).toByteArray()
            "stdin_text" -> (c["stdin_text"] as String).toByteArray()
            "stdin_b64" -> Vectors.b64(c["stdin_b64"] as String)
            else -> ByteArrayOutputStream().also { out ->
                for (p in Vectors.list(c["stdin_parts"])) {
                    if (p is String) {
                        out.write(p.toByteArray())
                    } else {
                        val m = Vectors.obj(p)
                        out.write((m["repeat"] as String).repeat(Vectors.int(m["times"])).toByteArray())
                    }
                }
            }.toByteArray()
        }
    }
}
