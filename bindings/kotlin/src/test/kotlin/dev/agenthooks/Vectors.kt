package dev.agenthooks

import java.io.File
import java.util.Base64
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Assert.fail

/** Shared-vector plumbing: the fixtures folder, strict loading, payload forms. */
object Vectors {
    val root: File = File(System.getProperty("agenthooks.root") ?: "../..").canonicalFile
    val fixtures: File = File(root, "fixtures")
    val filter: String? = System.getenv("AH_FIXTURE")

    /** The `*.json` files of a folder, sorted. */
    fun files(dir: String): List<File> =
        (File(fixtures, dir).listFiles { f -> f.isFile && f.name.endsWith(".json") } ?: emptyArray()).sortedBy { it.name }

    @Suppress("UNCHECKED_CAST")
    fun load(f: File): Map<String, Any?> = Json.parse(f.readText()) as Map<String, Any?>

    /** Strict loading: every member is one the runner knows. */
    fun strict(name: String, m: Map<String, Any?>, vararg known: String) {
        val unknown = m.keys - known.toSet()
        if (unknown.isNotEmpty()) fail("$name: unknown fields $unknown")
    }

    /** Checks `name` equals `<prefix><file stem>` and there is a description. */
    fun named(c: Map<String, Any?>, prefix: String, f: File): String {
        val name = c["name"] as String
        assertEquals("name equals its path", prefix + f.nameWithoutExtension, name)
        assertTrue("$name: description", (c["description"] as? String)?.isNotBlank() == true)
        return name
    }

    fun selected(name: String) = filter == null || name.contains(filter)

    fun b64(s: String): ByteArray = Base64.getDecoder().decode(s)

    @Suppress("UNCHECKED_CAST")
    fun obj(v: Any?): Map<String, Any?> = v as Map<String, Any?>

    @Suppress("UNCHECKED_CAST")
    fun list(v: Any?): List<Any?> = (v as List<Any?>?) ?: emptyList()

    fun int(v: Any?): Int = (v as JsonNumber).text.toInt()

    /** Prints and asserts the runner line every suite prints. */
    fun report(kind: String, ran: Int, total: Int) {
        System.err.println("kotlin $kind vectors: ran $ran, skipped 0, total $total")
        assertEquals("$kind: every vector runs", total, ran)
        if (filter == null) assertTrue("$kind: vectors found", total > 0)
    }
}
