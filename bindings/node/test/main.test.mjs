// main(router) end to end, as the agent runs it: a subprocess with argv and
// the payload on stdin; checks stdout (the answer only), stderr, exit code.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const PRE = (command) =>
  JSON.stringify({
    session_id: 's',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 't1',
  })

function hook(args, input, env = {}, script = 'hook.mjs') {
  const started = process.hrtime.bigint()
  const p = spawnSync(process.execPath, [path.join(HERE, 'hooks', script), ...args], {
    input,
    env: { ...process.env, AGENTHOOKS_STATE_DIR: path.join(HERE, '..', 'node_modules', '.ah-state'), ...env },
    encoding: 'utf8',
    timeout: 20000,
  })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  return { stdout: p.stdout, stderr: p.stderr, code: p.status, signal: p.signal, ms }
}

const RUN = ['agenthooks', 'run', '--provider=claude-code']

test('deny reaches stdout as Claude JSON; no opinion is Claude\'s no-op', () => {
  let r = hook(RUN, PRE('rm -rf /'))
  assert.equal(r.code, 0, r.stderr)
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny')
  r = hook(RUN, PRE('ls'))
  assert.equal(r.code, 0)
  assert.deepEqual(JSON.parse(r.stdout), {}) // Claude's no-op answer
})

test('CommonJS hook program', () => {
  const r = hook(RUN, PRE('rm -rf /'), {}, 'hook.cjs')
  assert.equal(r.code, 0, r.stderr)
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason, 'no rm (cjs)')
})

test('prints of a handler (console, stdout.write, child processes) never reach stdout', () => {
  const r = hook(RUN, PRE('ls'), { HOOK_MODE: 'print' })
  assert.equal(r.code, 0, r.stderr)
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason, 'printed')
  for (const s of ['stray console.log', 'stray console.info', 'stray stdout.write', 'stray child output']) {
    assert.ok(r.stderr.includes(s), `${s} goes to stderr: ${r.stderr}`)
  }
})

test('handler exception: fail open answers no opinion, fail closed denies', () => {
  for (const mode of ['throw', 'reject']) {
    let r = hook(RUN, PRE('ls'), { HOOK_MODE: mode })
    assert.equal(r.code, 0)
    assert.deepEqual(JSON.parse(r.stdout), {})
    assert.match(r.stderr, /handler_error: handler error: (async )?boom/)
    r = hook(RUN, PRE('ls'), { HOOK_MODE: mode, HOOK_FAIL: 'closed' })
    assert.equal(r.code, 0)
    const out = JSON.parse(r.stdout).hookSpecificOutput
    assert.equal(out.permissionDecision, 'deny')
    assert.match(out.permissionDecisionReason, /handler_error/)
  }
})

test('--fail on argv overrides the policy', () => {
  const r = hook([...RUN, '--fail=closed'], PRE('ls'), { HOOK_MODE: 'throw' })
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny')
})

test('an invalid decision goes through the fail policy', () => {
  const r = hook(RUN, PRE('ls'), { HOOK_MODE: 'invalid', HOOK_FAIL: 'closed' })
  assert.equal(r.code, 0)
  assert.match(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason, /invalid_decision/)
})

test('a hung async handler is abandoned at the deadline', () => {
  const r = hook(RUN, PRE('ls'), { HOOK_MODE: 'hang-async', HOOK_FAIL: 'closed', HOOK_TIMEOUT_MS: '300' })
  assert.equal(r.code, 0, r.stderr)
  assert.match(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason, /handler_timeout/)
  assert.match(r.stderr, /handler_timeout/)
  assert.ok(r.ms < 5000, `took ${r.ms} ms`)
})

test('a handler blocking the event loop is answered by the watchdog', () => {
  const r = hook(RUN, PRE('ls'), { HOOK_MODE: 'hang-sync', HOOK_FAIL: 'closed', HOOK_TIMEOUT_MS: '300' })
  assert.equal(r.signal, null)
  assert.equal(r.code, 0, r.stderr)
  assert.match(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason, /handler_timeout/)
  assert.ok(r.ms < 5000, `took ${r.ms} ms`)
  // Fail open: no opinion, still a clean exit.
  const o = hook(RUN, PRE('ls'), { HOOK_MODE: 'hang-sync', HOOK_TIMEOUT_MS: '200' })
  assert.equal(o.code, 0)
  assert.deepEqual(JSON.parse(o.stdout), {})
  assert.match(o.stderr, /handler_timeout/)
})

test('the --timeout of the config sets the deadline (90%)', () => {
  const r = hook([...RUN, '--timeout=0.5'], PRE('ls'), { HOOK_MODE: 'hang-async', HOOK_FAIL: 'closed' })
  assert.match(r.stderr, /within 450 ms/)
  const ok = hook([...RUN, '--timeout=5'], PRE('ls'), { HOOK_MODE: 'slow-ok' })
  assert.equal(JSON.parse(ok.stdout).hookSpecificOutput.permissionDecisionReason, 'slow but in time')
})

test('an exception thrown by a stray callback fails the run instead of crashing it', () => {
  const r = hook(RUN, PRE('ls'), { HOOK_MODE: 'stray-throw', HOOK_FAIL: 'closed' })
  assert.equal(r.code, 0, r.stderr)
  assert.match(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason, /handler_error/)
})

test('bad input follows the fail policy (Claude: exit 2 when closed)', () => {
  let r = hook(RUN, '{not json')
  assert.equal(r.code, 0)
  assert.equal(r.stdout, '')
  assert.match(r.stderr, /invalid_json/)
  r = hook([...RUN, '--fail=closed'], '{not json')
  assert.equal(r.code, 2)
  assert.match(r.stderr, /invalid_json/)
  r = hook([...RUN, '--max-bytes=10'], PRE('ls'))
  assert.equal(r.code, 0)
  assert.match(r.stderr, /too_large/)
})

test('unknown provider, bad option, no agenthooks word', () => {
  let r = hook(['agenthooks', 'run', '--provider=vim'], PRE('ls'))
  assert.equal(r.code, 0)
  assert.equal(r.stdout, '')
  assert.match(r.stderr, /unknown_provider/)
  // An unknown option is a warning; the run goes on (provider by shape).
  r = hook(['agenthooks', 'run', '--bogus=1'], PRE('ls'))
  assert.equal(r.code, 0)
  assert.match(r.stderr, /ignored unknown option `--bogus=1`/)
  // A typo in the provider under fail-closed: exit 2, the block every agent reads.
  r = hook(['agenthooks', 'run', '--provider=claude-cod', '--fail=closed'], PRE('rm -rf /'))
  assert.equal(r.code, 2)
  assert.equal(r.stdout, '')
  assert.match(r.stderr, /unknown_provider/)
  r = hook(['hello'], PRE('ls'))
  assert.equal(r.code, 64)
  assert.match(r.stderr, /coding-agent hook/)
})

test('other agents through the same program (Codex)', () => {
  const r = hook(['agenthooks', 'run', '--provider=codex'], JSON.stringify({
    session_id: 's', turn_id: 't', hook_event_name: 'PreToolUse', tool_name: 'Bash',
    tool_input: { command: 'rm -rf /' }, tool_use_id: 'c1', cwd: '/', model: 'm', permission_mode: 'default', transcript_path: null,
  }))
  assert.equal(r.code, 0, r.stderr)
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny')
})

test('legacy argv payload (older Cursor CLI builds): stdin is not read', () => {
  const payload = JSON.stringify({ hook_event_name: 'beforeShellExecution', command: 'rm -rf /', cwd: '/', conversation_id: 'c', generation_id: 'g' })
  const r = hook(['agenthooks', 'run', '--provider=cursor', payload], '')
  assert.equal(r.code, 0, r.stderr)
  assert.equal(JSON.parse(r.stdout).permission, 'deny')
  const big = hook(['agenthooks', 'run', '--provider=cursor', '--max-bytes=20', payload], '')
  assert.match(big.stderr, /too_large/)
})

test('AGENTHOOKS_NOTES=1 appends the notes to stderr', () => {
  const ask = (m) => JSON.stringify({ session_id: 's', turn_id: 'u', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: m }, tool_use_id: 't' })
  const r = spawnSync(path.join(HERE, '../../../examples/node/guard.mjs'), ['agenthooks', 'run', '--provider=codex'], {
    input: ask('git push --force'),
    env: { ...process.env, AGENTHOOKS_NOTES: '1' },
    encoding: 'utf8',
  })
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny')
  assert.match(r.stderr, /agenthooks: note: degraded ask -> deny/)
})

test('observers never gate: a hung one delays the answer to the deadline, not the decision', () => {
  const r = hook(RUN, PRE('rm -rf /'), { HOOK_MODE: 'observers', HOOK_FAIL: 'closed', HOOK_TIMEOUT_MS: '400' })
  assert.equal(r.code, 0, r.stderr)
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason, 'no rm')
  assert.match(r.stderr, /observer finished/)
  assert.doesNotMatch(r.stderr, /handler_timeout/)
})
