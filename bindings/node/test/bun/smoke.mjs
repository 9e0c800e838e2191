// Bun smoke test (OpenCode runs plugins under Bun): the package loads in
// Bun through both entry points, decodes, routes, responds and merges
// through the addon, and main() answers as a hook process (stray prints
// diverted, exceptions and a blocked event loop through the fail policy).
// Run with `bun test/bun/smoke.mjs`.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import agenthooks, { Decision, Router, decode, failResponseForPayload, respond } from 'agenthooks'

const require = createRequire(import.meta.url)
const cjs = require('agenthooks')
assert.equal(cjs.Router, Router, 'CommonJS and ESM are one module')
assert.equal(agenthooks.version, cjs.version)

const pre = (command) =>
  decode('claude-code', { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' })

const router = new Router({ policy: { fail: 'closed' } })
router.onToolPre(async (e) => (e.tool.command?.includes('rm') ? Decision.deny('no rm') : undefined))
router.onToolPre(() => Decision.noDecision().withContext('seen'))

const d = await router.decide(pre('rm -rf /'))
assert.equal(d.kind, 'deny')
const r = respond(pre('rm -rf /'), d)
assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny')
const n = await router.decide(pre('ls'))
assert.deepEqual(n.context, ['seen'])

let err
try {
  decode('codex', '{x')
} catch (e) {
  err = e
}
assert.equal(err?.code, 'invalid_json')
assert.equal(failResponseForPayload('codex', '{x', err, { fail: 'closed' }).exit_code, 2)

const HERE = path.dirname(fileURLToPath(import.meta.url))
const PRE = (command) => JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' })
function hook(script, input, env = {}) {
  const p = spawnSync(process.execPath, [script, 'agenthooks', 'run', '--provider=claude-code'], {
    input,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 20000,
  })
  assert.equal(p.status, 0, p.stderr)
  return { out: JSON.parse(p.stdout).hookSpecificOutput ?? {}, err: p.stderr }
}
const guard = path.join(HERE, '../../../../examples/node/guard.mjs')
assert.equal(hook(guard, PRE('rm -rf /')).out.permissionDecision, 'deny')
const HOOK = path.join(HERE, '../hooks/hook.mjs')
const printed = hook(HOOK, PRE('ls'), { HOOK_MODE: 'print' })
assert.equal(printed.out.permissionDecisionReason, 'printed')
assert.match(printed.err, /stray console.log[^]*stray stdout.write[^]*stray child output/)
for (const [mode, code] of [['throw', 'handler_error'], ['hang-sync', 'handler_timeout'], ['hang-async', 'handler_timeout']]) {
  const r = hook(HOOK, PRE('ls'), { HOOK_MODE: mode, HOOK_FAIL: 'closed', HOOK_TIMEOUT_MS: '300' })
  assert.match(r.out.permissionDecisionReason, new RegExp(code), mode)
}
console.log(`bun ${process.versions.bun}: agenthooks ${agenthooks.version} loads and answers (ESM, CommonJS, main(), fail policy)`)
