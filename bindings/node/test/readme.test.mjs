// The README example runs as written: as a hook program answering a real
// payload (the code between the example markers, imported as 'agenthooks').
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function example() {
  const readme = fs.readFileSync(path.join(PKG, 'README.md'), 'utf8')
  const m = readme.match(/<!-- example:start -->\s*```js\n([^]*?)```\s*<!-- example:end -->/)
  assert.ok(m, 'README example block')
  const code = m[1]
  assert.ok(code.trim().split('\n').length <= 10, 'the README example stays within 10 lines')
  return code
}

function runExample(code, provider, payload) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', code, 'agenthooks', 'run', `--provider=${provider}`], {
    cwd: PKG,
    input: JSON.stringify(payload),
    encoding: 'utf8',
  })
}

test('README example', () => {
  const code = example()
  const pre = (command) => ({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' })
  let r = runExample(code, 'claude-code', pre('rm -rf /'))
  assert.equal(r.status, 0, r.stderr)
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny')
  r = runExample(code, 'claude-code', { session_id: 's', hook_event_name: 'SessionStart', source: 'startup' })
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.stdout, /Run the tests before finishing/)
  r = runExample(code, 'codex', { ...pre('ls'), turn_id: 'u' })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, '')
})

// The "Testing your hook" example runs as written (node:test inside), and
// fails when its guard stops blocking.
test('README testing example', () => {
  const readme = fs.readFileSync(path.join(PKG, 'README.md'), 'utf8')
  const m = readme.match(/<!-- testing:start -->\s*```js\n([^]*?)```\s*<!-- testing:end -->/)
  assert.ok(m, 'README testing block')
  // Not a subtest of this runner: its own TAP report on stdout.
  const env = { ...process.env }
  delete env.NODE_TEST_CONTEXT
  const run = (code) => spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: PKG, env, encoding: 'utf8' })
  let r = run(m[1])
  assert.equal(r.status, 0, r.stdout + r.stderr)
  assert.match(r.stdout, /# pass 2/)
  const broken = m[1].replace("Decision.deny('no recursive deletes')", 'Decision.noDecision()')
  assert.notEqual(broken, m[1])
  r = run(broken)
  assert.notEqual(r.status, 0)
  assert.match(r.stdout + r.stderr, /not blocked on every agent that can block/)
})
