package dev.agenthooks

import dev.agenthooks.examples.guardRouter
import java.io.File
import java.nio.file.Files
import java.util.concurrent.TimeUnit
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test

/**
 * The Kotlin example guard (examples/kotlin/Guard.kt) answers every
 * provider fixture's payload byte for byte as the Rust guard
 * (examples/rust/guard): stdout, stderr and exit code. Every payload runs
 * through the Kotlin guard's router in this JVM (the run entry a hook
 * process uses); a sample also runs as a real JVM hook process, with and
 * without AGENTHOOKS_NOTES.
 */
class GuardParityTest {
    data class Answer(val stdout: String, val stderr: String, val code: Int)

    private val rustGuard: File by lazy {
        val p = System.getProperty("agenthooks.rustGuard")?.takeIf { it.isNotBlank() && !it.startsWith("\${") }
            ?: File(Vectors.root, "target/debug/guard").path
        File(p).also { assertTrue("the Rust guard is not built at $it (cargo build -p guard)", it.canExecute()) }
    }

    private fun proc(cmd: List<String>, env: Map<String, String>, stdin: ByteArray): Answer {
        val pb = ProcessBuilder(cmd)
        pb.environment().remove("AGENTHOOKS_NOTES")
        pb.environment().putAll(env)
        val p = pb.start()
        val errBuf = java.io.ByteArrayOutputStream()
        val errReader = Thread { p.errorStream.copyTo(errBuf) }.also { it.start() }
        p.outputStream.use { it.write(stdin) }
        val out = p.inputStream.readBytes()
        assertTrue("${cmd.first()} did not finish", p.waitFor(60, TimeUnit.SECONDS))
        errReader.join()
        return Answer(String(out), String(errBuf.toByteArray()), p.exitValue())
    }

    /** (name, args after the program, stdin) for every fixture payload the guards can be given. */
    private fun calls(): List<Triple<String, List<String>, ByteArray>> {
        val out = ArrayList<Triple<String, List<String>, ByteArray>>()
        for (dir in ProviderFixturesTest.providerDirs) {
            for (f in Vectors.files(dir)) {
                val c = Vectors.load(f)
                val name = c["name"] as String
                if (!Vectors.selected(name) || c.containsKey("payload_gen")) continue
                var args = mutableListOf("agenthooks", "run", "--provider=${c["provider"]}")
                (c["event"] as String?)?.let { args.add("--event=$it") }
                (c["variant"] as String?)?.takeIf { it.isNotEmpty() }?.let { args.add("--variant=$it") }
                var payload = ProviderFixturesTest.payload(c)
                @Suppress("UNCHECKED_CAST")
                val argv = c["argv"] as List<String>?
                if (argv != null && argv.size > 1) {
                    args = argv.drop(1).toMutableList()
                    payload = ByteArray(0)
                }
                out.add(Triple(name, args, payload))
            }
        }
        return out
    }

    @Test
    fun everyPayloadInProcess() {
        val rustState = Files.createTempDirectory("ah-kt-rust").toFile()
        val ktState = Files.createTempDirectory("ah-kt-guard").toFile()
        val router = guardRouter()
        var n = 0
        try {
            for ((name, args, payload) in calls()) {
                val r = proc(listOf(rustGuard.path) + args, mapOf("AGENTHOOKS_STATE_DIR" to rustState.path), payload)
                val k = router.run(listOf("guard") + args, payload, ktState.path).let { Answer(it.stdout, it.stderr, it.exitCode) }
                assertEquals("$name: Kotlin and Rust guards differ", r, k)
                n++
            }
        } finally {
            rustState.deleteRecursively()
            ktState.deleteRecursively()
        }
        System.err.println("kotlin guard parity (in-process): $n payloads identical to the Rust guard")
        if (Vectors.filter == null) assertTrue("payloads found", n > 300)
    }

    @Test
    fun sampleAsJvmProcesses() {
        val java = File(System.getProperty("java.home"), "bin/java").path
        val cp = System.getProperty("java.class.path")
        val rustState = Files.createTempDirectory("ah-kt-rust").toFile()
        val ktState = Files.createTempDirectory("ah-kt-guard").toFile()
        var n = 0
        try {
            // The first two payloads of each agent, one with the notes on stderr.
            val sample = calls().groupBy { it.first.substringBefore('/') }.values.flatMap { it.take(2) }
            for ((i, call) in sample.withIndex()) {
                val (name, args, payload) = call
                val env = if (i % 2 == 1) mapOf("AGENTHOOKS_NOTES" to "1") else emptyMap()
                val r = proc(listOf(rustGuard.path) + args, env + ("AGENTHOOKS_STATE_DIR" to rustState.path), payload)
                val k = proc(
                    listOf(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", cp, "dev.agenthooks.examples.GuardKt") + args,
                    env + ("AGENTHOOKS_STATE_DIR" to ktState.path),
                    payload,
                )
                assertEquals("$name: the Kotlin guard process and the Rust guard differ", r, k)
                n++
            }
        } finally {
            rustState.deleteRecursively()
            ktState.deleteRecursively()
        }
        System.err.println("kotlin guard parity (JVM processes): $n payloads identical to the Rust guard")
        if (Vectors.filter == null) assertTrue("sample found", n >= 16)
    }
}
