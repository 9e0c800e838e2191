#!/usr/bin/env node
// @ts-check
// The CommonJS twin of examples/node/guard.mjs (same handlers, same
// answers), so bench/process/run.py measures the `require` entry too.
'use strict'
const { Decision, Policy, Router, main } = require('agenthooks')

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
