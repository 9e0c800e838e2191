#!/usr/bin/env node
// @ts-check
// Example hook: one program that guards every agent (the Node twin of
// examples/rust/guard, same behaviour).
//
// Wire it as `<path>/guard.mjs agenthooks run --provider=claude-code` (or
// `codex`, ...). It denies destructive shell commands, asks before
// force-pushes, rewrites `npm install` to `npm ci`, adds context at session
// start, and keeps the agent going once if it stops before running tests.
import { Decision, Policy, Router, main } from 'agenthooks'

const router = new Router({ policy: Policy.failClosed().withAskFallback('deny') })

router.onToolPre((e) => {
  const cmd = e.tool.command ?? ''
  if (e.tool.canonical !== 'shell') return Decision.noDecision()
  if (cmd.includes('rm -rf')) {
    return Decision.deny(`destructive command: ${cmd}`).withBlockReason(
      'agenthooks guard blocked a destructive shell command',
    )
  }
  if (cmd.includes('git push --force') || cmd.includes('git push -f')) {
    return Decision.ask('Force-pushing rewrites shared history; a human must approve it.')
  }
  if (cmd.trim() === 'npm install') {
    return Decision.allow().withUpdatedInput({ ...e.tool.input, command: 'npm ci' })
  }
  if (cmd.startsWith('ls') || cmd.startsWith('pwd')) return Decision.allow()
  return Decision.noDecision()
})

router.onSessionStart(() =>
  Decision.noDecision().withContext('Project rule: run the test suite before finishing.'),
)

router.onStop((e) => {
  const ranTests = e.stop?.final_message?.includes('test') ?? false
  if (e.stop?.previously_continued || ranTests) return Decision.finish()
  return Decision.continueWith('Run the test suite and report the result before you finish.')
})

main(router)
