// The package surface: tables agree with the core and with the typings,
// decode/respond/answer/fail responses, decisions, policies, merge helpers,
// both entry points.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import * as ah from '../lib/index.mjs'
import ahDefault from 'agenthooks'

const {
  AgentHooksError, Decision, ERROR_CODES, Fold, KINDS, PROVIDERS, Policy,
  answer, capability, decode, failResponse, failResponseForPayload, isMutation, isSubagent,
  kindOf, mergeAll, mergeFirst, nativeEvents, parseKind, parseProvider, providerDisplayName,
  rawText, respond, validateDecision, version,
} = ah

const HERE = path.dirname(fileURLToPath(import.meta.url))
const PKG = path.resolve(HERE, '..')
const DTS = fs.readFileSync(path.join(PKG, 'lib/index.d.ts'), 'utf8')
const require = createRequire(import.meta.url)

function union(name) {
  const m = DTS.match(new RegExp(`export type ${name} =([^]*?)\\n(?:\\n|/\\*\\*|export)`))
  assert.ok(m, `type ${name} in index.d.ts`)
  return [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1])
}

const PRE = { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo hi > out.txt' }, tool_use_id: 't1' }

test('tables: error codes, kinds and providers match the core and the typings', () => {
  assert.deepEqual(union('ErrorCode'), [...ERROR_CODES])
  assert.deepEqual(union('Kind'), [...KINDS])
  assert.deepEqual(union('ProviderId'), [...PROVIDERS])
  assert.equal(ERROR_CODES.length, new Set(ERROR_CODES).size)
  assert.ok(ERROR_CODES.includes('handler_timeout'))
  assert.equal(parseProvider('claude'), 'claude-code')
  assert.equal(parseProvider('gemini-cli'), 'gemini')
  assert.equal(parseKind('PreToolUse'), 'tool.pre')
  assert.equal(parseKind('pre_tool_use'), 'tool.pre')
  assert.equal(providerDisplayName('codex'), 'OpenAI Codex CLI')
  assert.throws(() => parseProvider('vim'), (e) => e instanceof AgentHooksError && e.code === 'unknown_provider')
  assert.throws(() => parseKind('launch'), (e) => e.code === 'unknown_event_spelling')
  // Every decision kind the core knows is in the typings.
  const kinds = new Set(union('DecisionKind'))
  for (const p of PROVIDERS) {
    for (const n of nativeEvents(p)) for (const d of capability(p, n).decisions) assert.ok(kinds.has(d), d)
  }
})

test('version: package.json, the addon and the workspace agree', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'))
  assert.equal(version, pkg.version)
  const cargo = fs.readFileSync(path.join(PKG, '../../Cargo.toml'), 'utf8')
  const ws = cargo.match(/\[workspace\.package\][^[]*?\nversion\s*=\s*"([^"]+)"/)
  assert.equal(ws[1], pkg.version)
  assert.equal(pkg.engines.node, '>= 18')
})

test('entry points: ESM named, ESM default, CommonJS and self-reference are one module', () => {
  const cjs = require('../lib/index.js')
  assert.equal(ah.Router, cjs.Router)
  assert.equal(ahDefault.Router, cjs.Router)
  assert.equal(require('agenthooks'), cjs)
  assert.deepEqual(Object.keys(ah).filter((k) => k !== 'default').sort(), Object.keys(cjs).sort())
})

test('decode: text, bytes and objects; raw kept; errors carry codes', () => {
  const text = JSON.stringify(PRE)
  for (const p of [text, Buffer.from(text), new TextEncoder().encode(text), PRE]) {
    const e = decode('claude', p)
    assert.equal(e.kind, 'tool.pre')
    assert.equal(e.tool.command, 'echo hi > out.txt')
    assert.equal(rawText(e), text)
    assert.ok(ah.canonicalJson(e).endsWith(`"raw":${text}}`))
    assert.deepEqual(JSON.parse(ah.canonicalJson(e)), JSON.parse(JSON.stringify(e)))
    assert.deepEqual(e.raw, PRE)
  }
  const e = decode('claude', text)
  assert.deepEqual(JSON.parse(JSON.stringify(e)), e, 'events are plain JSON')
  assert.equal(isMutation(e), true)
  assert.equal(isSubagent(e), false)
  const sub = decode('claude', { ...PRE, agent_id: 'a1', agent_type: 'Explore' })
  assert.equal(isSubagent(sub), true)
  const noName = decode('claude', { session_id: 's', tool_name: 'Bash', tool_input: {} }, { event: 'PreToolUse' })
  assert.equal(noName.native_name, 'PreToolUse')
  for (const [payload, code] of [['{x', 'invalid_json'], ['[]', 'not_an_object'], [Buffer.from([0x7b, 0xff, 0x7d]), 'invalid_utf8']]) {
    assert.throws(() => decode('claude', payload), (err) => {
      assert.ok(err instanceof AgentHooksError)
      assert.equal(err.code, code)
      assert.equal(err.name, 'AgentHooksError')
      return true
    })
  }
  assert.throws(() => decode('claude', text, { maxBytes: 10 }), (err) => err.code === 'too_large')
  assert.throws(() => decode('nope', text), (err) => err.code === 'unknown_provider')
  assert.throws(() => decode('claude', 42), (err) => err.code === 'invalid_argument')
})

test('respond, answer and the fail responses', () => {
  const e = decode('codex', { ...PRE, turn_id: 'u' })
  // ask degrades on Codex, with a note.
  const r = respond(e, Decision.ask('sure?'))
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny')
  assert.deepEqual(r.notes.map((n) => [n.code, n.from, n.to]), [['degraded', 'ask', 'deny']])
  assert.throws(() => respond(e, Decision.ask('x'), { unsupported: 'strict' }), (err) => err.code === 'unsupported_decision')
  let err
  try {
    respond(e, Decision.ask('x'), { unsupported: 'strict', fail: 'closed' })
  } catch (x) {
    err = x
  }
  const f = failResponse('codex', e, err, { fail: 'closed', unsupported: 'strict' })
  assert.equal(f.notes[0].code, 'fail_closed')
  assert.equal(f.notes[0].from, 'unsupported_decision')
  // answer(): decisions, bad decisions and errors, never throwing.
  assert.equal(JSON.parse(answer(e, Decision.deny('no')).stdout).hookSpecificOutput.permissionDecision, 'deny')
  assert.equal(answer(e, { kind: 'finish' }).notes[0].from, 'invalid_decision')
  assert.equal(answer(e, 'deny').notes[0].from, 'invalid_decision')
  const closed = answer(e, new Error('db down'), { fail: 'closed' })
  assert.equal(closed.notes[0].from, 'handler_error')
  assert.match(closed.stderr, /db down/)
  assert.equal(answer(e, undefined).stdout, respond(e, Decision.noDecision()).stdout)
  // Undecodable input.
  let bad
  try {
    decode('claude', '{x')
  } catch (x) {
    bad = x
  }
  const u = failResponseForPayload('claude', '{x', bad, Policy.failClosed())
  assert.equal(u.exit_code, 2)
  assert.match(u.stderr, /invalid_json: invalid JSON at line 1/)
  assert.equal(failResponse('claude', null, bad, null).stdout, '')
})

test('an event object built or edited in JS is re-encoded from its JSON', () => {
  const e = decode('claude', PRE)
  const copy = { ...e, tool: { ...e.tool, name: 'Write', canonical: 'file.write' } }
  assert.equal(rawText(copy), JSON.stringify(PRE))
  const r = respond(copy, Decision.deny('x'))
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny')
  assert.throws(() => respond({ provider: 'claude-code' }, Decision.deny('x')), (x) => x.code === 'invalid_argument')
})

test('decisions: constructors, modifiers, strict parsing, validation', () => {
  const d = Decision.deny('r').withContext('a').withContext('b').withSystemMessage('m').withBlockReason('b').withStopAgent('s')
  assert.deepEqual(JSON.parse(JSON.stringify(d)), {
    kind: 'deny', reason: 'r', context: ['a', 'b'], system_message: 'm', block_reason: 'b', stop_agent: { reason: 's' },
  })
  assert.deepEqual({ ...Decision.from('{"kind":"noDecision","context":"x"}') }, { kind: 'no_decision', context: ['x'] })
  assert.deepEqual({ ...Decision.from({ kind: 'deny', reason: 'r', stop_agent: true }) }, { kind: 'deny', reason: 'r', stop_agent: {} })
  assert.throws(() => Decision.from({ kind: 'deny', why: 'r' }), (e) => e.code === 'invalid_decision')
  assert.equal(Decision.continueWith('go').instruction, 'go')
  assert.deepEqual(Decision.replaceOutput({ a: 1 }).replaced_output, { a: 1 })
  assert.equal(Decision.allow().withUpdatedInput({ command: 'x' }).updated_input.command, 'x')
  const p = Decision.allow().withPatchInput({ command: 'x', timeout: null })
  assert.deepEqual(JSON.parse(JSON.stringify(p)), { kind: 'allow', patch_input: { command: 'x', timeout: null } })
  assert.deepEqual({ ...Decision.from(p) }, { kind: 'allow', patch_input: { command: 'x', timeout: null } })
  assert.deepEqual(Decision.noDecision().withNative({ x: 1 }).native, { x: 1 })
  for (const k of ['noDecision', 'allow', 'defer', 'acceptPrompt', 'finish', 'observed']) assert.ok(Decision[k]() instanceof Decision)
  for (const k of ['deny', 'ask', 'blockPrompt', 'flagOutput']) assert.equal(Decision[k]('r').reason, 'r')
  validateDecision(Decision.deny('r'), 'tool.pre')
  assert.throws(() => validateDecision(Decision.deny('r'), 'agent.stop'), (e) => e.code === 'invalid_decision')
})

test('policy helpers and merge helpers', () => {
  assert.deepEqual(Policy.normalize(Policy.failClosed().withTimeoutMs(50).withContinuationCap(0)), {
    fail: 'closed', unsupported: 'degrade', ask_fallback: 'deny', headless_ask: 'deny', continuation_cap: 0, timeout_ms: 50,
  })
  assert.equal(Policy.normalize(new Policy().withHeadlessAsk('native')).headless_ask, 'native')
  assert.throws(() => Policy.normalize({ headless_ask: 'ask' }), (e) => e.code === 'invalid_argument')
  assert.equal(Policy.normalize(new Policy().withUnsupported('strict').withAskFallback('no_decision').withFail('open')).unsupported, 'strict')
  assert.throws(() => Policy.normalize({ fail: 'maybe' }), (e) => e.code === 'invalid_argument')
  assert.equal(mergeFirst([undefined, Decision.deny('x').withContext('b'), Decision.allow()]).kind, 'deny')
  assert.deepEqual(mergeAll([Decision.finish(), Decision.continueWith('go')]).kind, 'continue')
  const f = new Fold()
  assert.equal(f.push(Decision.noDecision().withContext('a')), false)
  assert.equal(f.push(Decision.deny('x')), true)
  assert.equal(f.isDone(), true)
  assert.deepEqual({ ...f.finish() }, { kind: 'deny', reason: 'x', context: ['a'] })
  assert.throws(() => new Fold().push({ kind: 'nah' }), (e) => e.code === 'invalid_decision')
})

test('capabilities and native events', () => {
  const c = capability('codex', 'PreToolUse')
  assert.equal(c.kind, 'tool.pre')
  assert.equal(c.can_block, true)
  assert.ok(!c.decisions.includes('ask'))
  assert.ok(nativeEvents('claude-code').includes('PreToolUse'))
  assert.equal(kindOf('gemini', 'BeforeTool'), 'tool.pre')
})

test('deadlines: policy timeout, else 90% of --timeout, else 55 s', () => {
  assert.equal(ah.deadlineMs({ timeout_ms: 50 }, 10), 50)
  assert.equal(ah.deadlineMs(null, 10), 9000)
  assert.equal(ah.deadlineMs(), 55000)
})

test('detect and parseArgs', () => {
  const payload = { session_id: 'abc', hook_event_name: 'SessionEnd', reason: 'other' }
  assert.deepEqual(ah.detect(payload, { provider: 'claude', env: {} }), { provider: 'claude-code', detection: 'config' })
  const byEnv = ah.detect(payload, { env: { CLAUDE_CODE_SESSION_ID: 'abc' } })
  assert.equal(byEnv.provider, 'claude-code')
  assert.equal(byEnv.detection, 'env')
  assert.throws(() => ah.detect(payload, { provider: 'vim', env: {} }), (e) => e.code === 'unknown_provider')
  const a = ah.parseArgs(['/bin/guard', 'agenthooks', 'run', '--provider=codex', '--timeout', '20', '--fail=closed'])
  assert.equal(a.provider, 'codex')
  assert.equal(a.timeoutS, 20)
  assert.equal(a.fail, 'closed')
  assert.equal(ah.parseArgs(['guard', 'x']), null)
  assert.equal(ah.parseArgs(['g', 'agenthooks', '--agent', 'claude', '{"hook_event_name":"Stop"}']).provider, 'claude')
  assert.throws(() => ah.parseArgs(['g', 'agenthooks', 'run', '--bogus=1']), (e) => e.code === 'invalid_argument')
})

test('run(): one author-side run without process side effects', async () => {
  const router = new ah.Router({ policy: { fail: 'closed' } }).onToolPre(() => { throw new Error('x') })
  const r = await ah.run(router, ['guard', 'agenthooks', 'run', '--provider=claude-code'], JSON.stringify(PRE))
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny')
  assert.equal(r.notes[0].code, 'fail_closed')
  const bad = await ah.run(router, ['guard', 'agenthooks', 'run', '--provider=claude-code'], '{x')
  assert.equal(bad.exit_code, 2)
  // Without the word: usage and 64, as main() answers.
  const usage = await ah.run(router, ['guard'], '{}')
  assert.equal(usage.exit_code, 64)
  assert.match(usage.stderr, /agenthooks run --provider=<agent>/)
  // An unknown option is a warning; a bad --fail reads as closed.
  const warned = await ah.run(new ah.Router().onToolPre(() => ah.Decision.deny('no')), ['guard', 'agenthooks', 'run', '--provider=claude-code', '--bogus=1'], JSON.stringify(PRE))
  assert.equal(JSON.parse(warned.stdout).hookSpecificOutput.permissionDecision, 'deny')
  assert.match(warned.stderr, /--bogus/)
  const closd = await ah.run(new ah.Router(), ['guard', 'agenthooks', 'run', '--provider=claude-code', '--fail=closd'], JSON.stringify(PRE))
  assert.equal(JSON.parse(closd.stdout).hookSpecificOutput.permissionDecision, 'deny')
})

test('handlers read the session mode (interactive, modeSignal)', async () => {
  let seen = []
  const router = new ah.Router().onToolPre((e) => {
    seen.push([e.interactive, e.modeSignal])
    return Decision.allow()
  })
  const cases = [
    ['{"ancestors":[["claude","-p","x"]]}', [false, 'argv:-p']],
    ['{"env":{"CLAUDE_CODE_SESSION_ATTENDED":"1"}}', [true, 'env:CLAUDE_CODE_SESSION_ATTENDED=1']],
    ['{"ancestors":[["sh"]]}', [null, null]],
  ]
  for (const [observed, want] of cases) {
    seen = []
    const r = await ah.run(router, ['guard', 'agenthooks', 'run', '--provider=claude-code', `--observed=${observed}`], JSON.stringify(PRE))
    assert.equal(r.exit_code, 0, r.stderr)
    assert.deepEqual(seen, [want], observed)
  }
  // Without an observation: this process's own (live), consistent, and
  // not part of the event's JSON.
  const e = decode('claude', PRE)
  assert.ok([true, false, null].includes(e.interactive))
  assert.equal(e.interactive === null, e.modeSignal === null)
  assert.equal(Object.keys(e).includes('modeSignal'), false)
})
