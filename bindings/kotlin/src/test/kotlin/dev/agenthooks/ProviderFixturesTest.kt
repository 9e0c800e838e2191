package dev.agenthooks

import java.io.File
import org.junit.Assert.assertArrayEquals
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test

/** Every `fixtures/<provider>/<case>.json` case: decode, canonical event, every response (fixtures/README.md). */
class ProviderFixturesTest {
    companion object {
        val providerDirs: List<String> by lazy {
            (Vectors.fixtures.listFiles { f -> f.isDirectory } ?: emptyArray())
                .map { it.name }
                .filter { runCatching { dev.agenthooks.core.parseProvider(it) }.isSuccess }
                .sorted()
        }

        /** The payload bytes of a case (exactly one form). */
        fun payload(c: Map<String, Any?>): ByteArray {
            val forms = listOf("payload", "payload_text", "payload_b64", "payload_gen").filter { c.containsKey(it) }
            assertEquals("${c["name"]}: exactly one payload form", 1, forms.size)
            return when (forms[0]) {
                "payload" -> Json.write(c["payload"]).toByteArray()
                "payload_text" -> (c["payload_text"] as String).toByteArray()
                "payload_b64" -> Vectors.b64(c["payload_b64"] as String)
                else -> gen(Vectors.obj(c["payload_gen"]))
            }
        }

        private fun gen(g: Map<String, Any?>): ByteArray = when (g["kind"]) {
            "deep" -> {
                val d = Vectors.int(g["depth"])
                ("[".repeat(d) + "]".repeat(d)).toByteArray()
            }
            "big_string" -> ("\"" + "x".repeat(Vectors.int(g["bytes"])) + "\"").toByteArray()
            "big_field" -> {
                val base = LinkedHashMap(Vectors.obj(g["base"]))
                base[g["field"] as String] = "x".repeat(Vectors.int(g["bytes"]))
                Json.write(base).toByteArray()
            }
            else -> throw AssertionError("unknown payload_gen kind ${g["kind"]}")
        }
    }

    @Test
    fun everyProviderFixture() {
        var total = 0
        var ran = 0
        val names = HashSet<String>()
        for (dir in providerDirs) {
            for (f in Vectors.files(dir)) {
                val c = Vectors.load(f)
                Vectors.strict(f.path, c, "name", "description", "provider", "variant", "event", "argv", "env",
                    "payload", "payload_text", "payload_b64", "payload_gen", "expect", "responses", "skip")
                val name = Vectors.named(c, "$dir/", f)
                assertTrue("duplicate $name", names.add(name))
                if (!Vectors.selected(name)) continue
                total++
                val skip = Vectors.obj(c["skip"] ?: emptyMap<String, Any?>())
                if (skip.containsKey("kotlin")) fail("$name: skipped for kotlin (${skip["kotlin"]}): a vector a runner cannot run is a failure")
                runCase(name, c)
                ran++
            }
        }
        Vectors.report("provider", ran, total)
    }

    private fun runCase(name: String, c: Map<String, Any?>) {
        val bytes = payload(c)
        val providerName = c["provider"] as String
        val provider = runCatching { dev.agenthooks.core.parseProvider(providerName) }
        var detection: String? = null
        var variant = c["variant"] as String?
        if (c.containsKey("env") || c.containsKey("argv")) {
            @Suppress("UNCHECKED_CAST")
            val env = (c["env"] as Map<String, String>?) ?: emptyMap()
            @Suppress("UNCHECKED_CAST")
            val argv = (c["argv"] as List<String>?) ?: emptyList()
            val det = try {
                dev.agenthooks.core.detectArgv(argv, env, bytes)
            } catch (e: Exception) {
                throw AssertionError("$name: detection failed: ${e.message}", e)
            }
            assertEquals("$name: detected provider", provider.getOrNull(), det.provider)
            detection = det.detection
            if (variant == null) variant = det.variant
        }
        val expect = Vectors.obj(c["expect"])
        Vectors.strict("$name expect", expect, "event", "error")
        val decoded: Result<Event> = runCatching {
            Event.decode(providerName, bytes, variant = variant, event = c["event"] as String?, detection = detection)
        }
        when {
            expect.containsKey("event") && decoded.isSuccess -> {
                val ev = decoded.getOrThrow()
                val got = ev.json
                if (!Json.same(got, expect["event"])) {
                    fail("$name: canonical event\n got:  ${Json.write(got)}\n want: ${Json.write(expect["event"])}")
                }
                assertArrayEquals("$name: raw must be byte-identical", bytes, ev.raw)
            }
            expect.containsKey("error") && decoded.isFailure -> {
                val e = decoded.exceptionOrNull()
                assertTrue("$name: $e", e is AgentHooksError)
                assertEquals("$name: error code (${e!!.message})", Vectors.obj(expect["error"])["code"], (e as AgentHooksError).code)
            }
            expect.containsKey("event") -> fail("$name: expected an event, got ${decoded.exceptionOrNull()}")
            else -> fail("$name: expected error ${expect["error"]}, decoded fine")
        }
        for ((i, rv) in Vectors.list(c["responses"]).withIndex()) {
            val rc = Vectors.obj(rv)
            Vectors.strict("$name response $i", rc, "decision", "policy", "error", "wire", "notes")
            val policy = rc["policy"]?.let { Json.write(it) }
            val resp: Response = if (decoded.isFailure) {
                assertTrue("$name: response $i: `error` is implied on error cases", rc["error"] == null)
                val err = decoded.exceptionOrNull() as AgentHooksError
                Response.of(dev.agenthooks.core.failResponseForPayload(providerName, bytes, err.code, err.message ?: "", policy))
            } else {
                val ev = decoded.getOrThrow()
                val want = rc["error"]?.let { Vectors.obj(it)["code"] as String }
                val r = runCatching {
                    Response.of(ev.native.respond(rc["decision"]?.let { Json.write(it) }, policy))
                }
                when {
                    r.isSuccess && want == null -> r.getOrThrow()
                    r.isFailure && want != null -> {
                        val e = r.exceptionOrNull() as dev.agenthooks.core.AgentHooksException
                        assertEquals("$name: response $i: error code", want, e.code)
                        Response.of(ev.native.failResponse(e.code, e.message ?: "", policy))
                    }
                    r.isSuccess -> fail("$name: response $i: expected error $want, got ${r.getOrNull()}") as Nothing
                    else -> throw AssertionError("$name: response $i: unexpected error", r.exceptionOrNull())
                }
            }
            checkWire("$name: response $i", resp, Vectors.obj(rc["wire"]))
            val gotNotes = resp.notes.map { n ->
                linkedMapOf<String, Any?>("code" to n.code).also { m -> n.from?.let { m["from"] = it }; n.to?.let { m["to"] = it } }
            }
            if (!Json.same(gotNotes, Vectors.list(rc["notes"]))) {
                fail("$name: response $i: notes\n got:  ${Json.write(gotNotes)}\n want: ${Json.write(rc["notes"])}")
            }
        }
    }

    private fun checkWire(what: String, r: Response, w: Map<String, Any?>) {
        Vectors.strict(what, w, "stdout_json", "stdout", "stderr", "exit_code")
        assertEquals("$what: exit code (stdout ${r.stdout}, stderr ${r.stderr})", Vectors.int(w["exit_code"]), r.exitCode)
        when {
            w.containsKey("stdout_json") && !w.containsKey("stdout") -> {
                val got = try {
                    Json.parse(r.stdout)
                } catch (e: AgentHooksError) {
                    throw AssertionError("$what: stdout is not JSON: ${r.stdout}")
                }
                if (!Json.same(got, w["stdout_json"])) fail("$what: stdout JSON\n got:  ${r.stdout}\n want: ${Json.write(w["stdout_json"])}")
            }
            w.containsKey("stdout") && !w.containsKey("stdout_json") -> assertEquals("$what: stdout", w["stdout"], r.stdout)
            else -> fail("$what: wire needs exactly one of stdout_json / stdout")
        }
        when (val s = w["stderr"]) {
            null -> {}
            is String -> assertEquals("$what: stderr", s, r.stderr)
            else -> {
                val sub = Vectors.obj(s)["contains"] as String
                assertTrue("$what: stderr ${r.stderr} lacks $sub", r.stderr.contains(sub))
            }
        }
    }
}
