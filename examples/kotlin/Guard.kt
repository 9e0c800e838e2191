// Example hook: one program that guards every agent, the Kotlin twin of
// examples/rust/guard (it answers every payload byte for byte as that one).
//
// Wire it as `<launcher> agenthooks run --provider=claude-code` (or
// `codex`, ...). It denies destructive shell commands, asks before
// force-pushes, rewrites `npm install` to `npm ci`, adds context at session
// start, and keeps the agent going once if it stops before running tests.
package dev.agenthooks.examples

import dev.agenthooks.Policy
import dev.agenthooks.Router
import dev.agenthooks.allow
import dev.agenthooks.ask
import dev.agenthooks.continueWith
import dev.agenthooks.deny
import dev.agenthooks.finish
import dev.agenthooks.noDecision

fun guardRouter(): Router {
    val r = Router(Policy(fail = "closed", askFallback = "deny"))
    r.onToolPre { e ->
        val tool = e.tool ?: return@onToolPre noDecision()
        val cmd = tool.command
        when {
            tool.canonical != "shell" -> noDecision()
            "rm -rf" in cmd -> deny("destructive command: $cmd")
                .withBlockReason("agenthooks guard blocked a destructive shell command")
            "git push --force" in cmd || "git push -f" in cmd ->
                ask("Force-pushing rewrites shared history; a human must approve it.")
            cmd.trim() == "npm install" -> allow().withUpdatedInput(tool.input + ("command" to "npm ci"))
            cmd.startsWith("ls") || cmd.startsWith("pwd") -> allow()
            else -> noDecision()
        }
    }
    r.onSessionStart { noDecision().withContext("Project rule: run the test suite before finishing.") }
    r.onStop { e ->
        val ranTests = e.stop.finalMessage?.contains("test") == true
        if (e.stop.previouslyContinued || ranTests) {
            finish()
        } else {
            continueWith("Run the test suite and report the result before you finish.")
        }
    }
    return r
}

fun main(args: Array<String>): Unit = guardRouter().main(args)
