package dev.agenthooks

import java.io.File
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test

/**
 * Every behaviour vector of `fixtures/simulate` (and `fixtures/simulate/observed`,
 * when present) through the core's predict entry (`predictJson`), as every
 * language's testing helpers run them; and the other JSON entry points answer.
 */
class SimulateVectorsTest {
    @Test
    fun everySimulateVector() {
        val research = Vectors.files("simulate")
        val observed = (File(Vectors.fixtures, "simulate/observed").listFiles { f -> f.name.endsWith(".json") } ?: emptyArray()).sortedBy { it.name }
        var ran = 0
        var total = 0
        for ((f, headless) in research.map { it to false } + observed.map { it to true }) {
            val doc = Vectors.load(f)
            val agent = doc["agent"] as String
            assertEquals("${f.name}: agent is the file stem", f.nameWithoutExtension, agent)
            for (rv in Vectors.list(doc["rows"])) {
                val r = Vectors.obj(rv)
                val id = "${f.name}/${r["name"]}"
                if (!Vectors.selected(id)) continue
                total++
                val req = linkedMapOf<String, Any?>("agent" to agent, "event" to r["event"], "answer" to r["answer"])
                if (headless) req["mode"] = "headless"
                (r["tool"] as String?)?.let { req["tool"] = it }
                val p = Vectors.obj(Json.parse(dev.agenthooks.core.predictJson(Json.write(req))))
                assertTrue("$id: ${Json.write(p)}", !p.containsKey("error"))
                assertEquals("$id: effect", r["effect"], p["effect"])
                val got = Vectors.list(p["warnings"]).map { Vectors.obj(it)["code"] as String }.sorted()
                val want = Vectors.list(r["warnings"]).map { it as String }.sorted()
                if (headless) {
                    assertTrue("$id: warnings $want not all predicted ($got)", got.containsAll(want))
                } else {
                    assertEquals("$id: warnings", want, got)
                }
                for (what in listOf("model_sees", "user_sees")) {
                    if (!r.containsKey(what)) continue
                    val w = r[what]
                    val g = p[what] as String?
                    if (w == null) {
                        assertEquals("$id: $what must be none", null, g)
                    } else {
                        assertTrue("$id: $what $g lacks $w", g != null && g.contains(w as String))
                    }
                }
                ran++
            }
        }
        Vectors.report("simulate", ran, total)
        if (Vectors.filter == null) assertTrue("simulate rows", ran >= 100)
    }

    @Test
    fun jsonEntryPointsAnswer() {
        val corpus = dev.agenthooks.core.corpusJson("""{"agent":"codex","kind":"tool.pre"}""")
        assertTrue(corpus.take(200), corpus.contains("\"agent\":\"codex\""))
        val m = Vectors.obj(Json.parse(dev.agenthooks.core.matcherJson("""{"dialect":"codex","pattern":"^Bash$","subjects":["Bash","bash"]}""")))
        assertEquals(listOf(true, false), m["matches"])
        val bad = Vectors.obj(Json.parse(dev.agenthooks.core.installJson("""{"action":"fly"}""")))
        assertTrue(Json.write(bad), bad.containsKey("error"))
        val tmp = java.nio.file.Files.createTempDirectory("ah-kt-install").toFile()
        try {
            val manifest = "id = \"kt\"\nprogram = \"/bin/true\"\n[[hooks]]\nkind = \"tool.pre\"\n"
            val req = mapOf("action" to "install", "manifest" to manifest, "agent" to "claude-code", "scope" to "user",
                "home" to tmp.path, "project" to tmp.path, "dry_run" to true)
            val out = dev.agenthooks.core.installJson(Json.write(req))
            val res = Vectors.obj(Vectors.list(Vectors.obj(Json.parse(out))["results"]).single())
            assertEquals(out, true, res["changed"])
            assertTrue(out, (res["diff"] as String).contains("--hook-id=kt:"))
            assertTrue("dry run writes nothing", tmp.listFiles()!!.isEmpty())
        } finally {
            tmp.deleteRecursively()
        }
        val caps = Json.parse(dev.agenthooks.core.capabilitiesJson("claude-code")) as List<*>
        assertTrue(caps.any { (it as Map<*, *>)["native_name"] == "PreToolUse" })
    }
}
