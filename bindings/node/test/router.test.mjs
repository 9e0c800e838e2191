// Router API semantics beyond the shared router fixtures: typed
// registration, when/any/all, native handlers, middleware, observers,
// Promises, errors and the deadline.
import { test } from 'node:test'
import assert from 'node:assert/strict'

import {
  AgentHooksError,
  Decision,
  Router,
  all,
  any,
  canonical,
  decideWithDeadline,
  decode,
  when,
} from '../lib/index.mjs'

const pre = (command, tool = 'Bash') =>
  decode('claude-code', {
    session_id: 's',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: tool === 'Bash' ? { command } : { file_path: '/x' },
    tool_use_id: 't',
  })

test('stacking, when with canonical classes and names, native handlers', async () => {
  const r = new Router()
  r.onToolPre((e) => (e.tool.command?.includes('rm') ? Decision.deny('rm') : Decision.noDecision().withContext('seen')))
  r.on('tool.pre', when(canonical('shell'), () => Decision.ask('shell')))
  r.on('PreToolUse', when('Write|Edit', () => Decision.deny('never for Bash')))
  assert.equal((await r.decide(pre('rm -rf x'))).kind, 'deny')
  const d = await r.decide(pre('ls'))
  assert.deepEqual({ ...d }, { kind: 'ask', reason: 'shell', context: ['seen'] })
  assert.equal((await r.decide(pre('', 'Write'))).reason, 'never for Bash')
  const other = decode('claude-code', { session_id: 's', hook_event_name: 'ConfigChange', source: 'user_settings' })
  assert.equal(other.kind, 'other')
  assert.equal(r.handles(other), false)
  assert.deepEqual({ ...(await r.decide(other)) }, { kind: 'no_decision' })
  r.onNative('ConfigChange', () => Decision.noDecision().withSystemMessage('config changed'))
  assert.equal(r.handles(other), true)
  assert.equal((await r.decide(other)).system_message, 'config changed')
})

test('native handlers run before the kind handlers', async () => {
  const order = []
  const r = new Router()
  r.onToolPre(() => { order.push('kind'); return Decision.allow() })
  r.onNative('PreToolUse', () => { order.push('native') })
  assert.equal((await r.decide(pre('ls'))).kind, 'allow')
  assert.deepEqual(order, ['native', 'kind'])
})

test('matchers: predicate, array of names, bad matcher', async () => {
  const h = when((t) => t.name === 'Bash', () => Decision.deny('pred'))
  assert.equal(((await h(pre('ls'))) ?? {}).kind, 'deny')
  const n = when(['Write'], () => Decision.deny('names'))
  assert.equal(await n(pre('ls')), undefined)
  assert.throws(() => when(42, () => undefined), (e) => e instanceof AgentHooksError && e.code === 'invalid_argument')
})

test('handlers may return Promises, plain decision objects or nothing', async () => {
  const r = new Router()
  r.onToolPre(async () => undefined)
  r.onToolPre(() => null)
  r.onToolPre(async () => ({ kind: 'no_decision', context: 'plain' }))
  r.onToolPre(async () => Decision.allow())
  r.onToolPre(() => assert.fail('not called after a conclusive decision'))
  assert.deepEqual({ ...(await r.decide(pre('ls'))) }, { kind: 'allow', context: ['plain'] })
})

test('any and all compose like the core merge', async () => {
  const d = await all(
    () => Decision.allow(),
    async () => Decision.ask('a').withContext('1'),
    () => Decision.deny('d'),
  )(pre('ls'))
  assert.deepEqual({ ...d }, { kind: 'deny', reason: 'd', context: ['1'] })
  let calls = 0
  const first = await any(
    () => { calls++; return undefined },
    () => { calls++; return Decision.deny('x') },
    () => { calls++; return Decision.allow() },
  )(pre('ls'))
  assert.equal(first.kind, 'deny')
  assert.equal(calls, 2)
})

test('middleware wraps outermost first, next at most once; observers see all and never gate', async () => {
  const order = []
  const seen = []
  const r = new Router()
  r.use(async (e, next) => { order.push('outer'); return next(e) })
  r.use(async (e, next) => { order.push('inner'); const d = await next(); return d.withContext('from middleware') })
  r.onAny((e) => seen.push(e.native_name))
  r.onAny(() => { throw new Error('observer failures are reported, not fatal') })
  r.onAny(async () => { await new Promise((res) => setTimeout(res, 5)); seen.push('async observer') })
  r.onToolPre(() => Decision.allow())
  const d = await r.decide(pre('ls'))
  assert.deepEqual({ ...d }, { kind: 'allow', context: ['from middleware'] })
  assert.deepEqual(order, ['outer', 'inner'])
  assert.deepEqual(seen, ['PreToolUse'], 'decide does not wait for observers')
  await new Promise((res) => setTimeout(res, 30))
  assert.deepEqual(seen, ['PreToolUse', 'async observer'])
  // A hung observer does not hold the decision.
  const hung = new Router().onAny(() => new Promise(() => {})).onToolPre(() => Decision.deny('x'))
  assert.equal((await decideWithDeadline(hung, pre('ls'), 200)).kind, 'deny')

  const twice = new Router().use(async (e, next) => { await next(e); return next(e) })
  await assert.rejects(twice.decide(pre('ls')), (e) => e.code === 'handler_error' && /more than once/.test(e.message))
  // Middleware may answer without calling next.
  const short = new Router().use(() => Decision.deny('mw')).onToolPre(() => assert.fail('not reached'))
  assert.equal((await short.decide(pre('ls'))).reason, 'mw')
})

test('errors: handler exceptions are handler_error, bad decisions invalid_decision', async () => {
  const r = new Router().onToolPre(() => { throw new TypeError('db down') })
  await assert.rejects(r.decide(pre('ls')), (e) => {
    assert.ok(e instanceof AgentHooksError)
    assert.ok(e instanceof Error)
    assert.equal(e.code, 'handler_error')
    assert.match(e.message, /db down/)
    assert.ok(e.cause instanceof TypeError)
    return true
  })
  const bad = new Router().onToolPre(() => ({ kind: 'deny', why: 'typo' }))
  await assert.rejects(bad.decide(pre('ls')), (e) => e.code === 'invalid_decision')
  const str = new Router().onToolPre(() => 'deny')
  await assert.rejects(str.decide(pre('ls')), (e) => e.code === 'invalid_decision')
  assert.throws(() => new Router().onToolPre('nope'), (e) => e.code === 'invalid_argument')
  assert.throws(() => new Router().on('launch', () => undefined), (e) => e.code === 'unknown_event_spelling')
})

test('policy: partial in, defaults filled; invalid policy rejected', () => {
  const r = new Router({ policy: { fail: 'closed' } })
  assert.deepEqual({ ...r.policy }, { fail: 'closed', unsupported: 'degrade', ask_fallback: 'deny', headless_ask: 'deny', continuation_cap: 5 })
  assert.throws(() => new Router({ policy: { fial: 'closed' } }), (e) => e.code === 'invalid_argument')
})

test('decideWithDeadline abandons a hung handler with handler_timeout', async () => {
  const r = new Router().onToolPre(() => new Promise(() => {}))
  const started = Date.now()
  await assert.rejects(decideWithDeadline(r, pre('ls'), 50), (e) => {
    assert.equal(e.code, 'handler_timeout')
    assert.match(e.message, /50 ms/)
    return true
  })
  assert.ok(Date.now() - started < 2000)
  const fast = new Router().onToolPre(() => Decision.allow())
  assert.equal((await decideWithDeadline(fast, pre('ls'), 1000)).kind, 'allow')
})
