// The test kit (agenthooks/testing): the package export in both module
// systems, the corpus and the behaviour vectors through the binding, and
// the helpers themselves: they pass for a right guard and FAIL, naming
// the agent, for a guard that forgets one agent or allows everything.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { AgentHooksError, Decision, Router, capability, decode } from 'agenthooks'
import * as kit from 'agenthooks/testing'
import {
  AGENTS,
  EFFECTS,
  Scenario,
  WARNINGS,
  acrossAgents,
  assertBlockedEverywhere,
  assertEffect,
  assertEffectEverywhere,
  assertNoEmptyAllow,
  assertNoWarning,
  assertRan,
  assertRunsEverywhere,
  corpus,
  effectOf,
  outcomeOf,
  payloads,
  predict,
  runHook,
  runRouter,
} from 'agenthooks/testing'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const REPO = path.resolve(HERE, '../../..')
const HOOK = path.join(HERE, 'hooks/kit_hook.mjs')
const require = createRequire(import.meta.url)

const hook = (mode) => [process.execPath, HOOK, mode, 'agenthooks', 'run', '--provider={agent}']

function guard({ forget } = {}) {
  const r = new Router()
  r.onToolPre((e) => {
    if (!(e.tool.command ?? '').includes('rm -rf')) return Decision.noDecision()
    if (e.provider === forget) return Decision.noDecision()
    return Decision.deny('no recursive deletes')
  })
  return r
}

function allowAll() {
  const r = new Router()
  r.onToolPre(() => Decision.allow())
  return r
}

// The assertion throws node:assert's AssertionError whose message matches.
function fails(fn, ...patterns) {
  let err
  try {
    fn()
  } catch (e) {
    err = e
  }
  assert.ok(err, 'the assertion passed')
  assert.ok(err instanceof assert.AssertionError, `not an AssertionError: ${err}`)
  for (const p of patterns) assert.match(err.message, p)
  return err
}

test('agenthooks/testing: the same objects through require and import', () => {
  const cjs = require('agenthooks/testing')
  assert.deepEqual(Object.keys(kit).filter((k) => k !== 'default').sort(), Object.keys(cjs).sort())
  for (const k of Object.keys(cjs)) assert.equal(kit[k], cjs[k], k)
  assert.equal(kit.default, cjs)
  assert.deepEqual([...AGENTS], require('agenthooks').PROVIDERS)
})

test('EFFECTS and WARNINGS are the tables of fixtures/simulate/README.md', () => {
  const md = fs.readFileSync(path.join(REPO, 'fixtures/simulate/README.md'), 'utf8')
  const table = (heading) => {
    const part = md.split(`## ${heading}`)[1].split('\n## ')[0]
    return [...part.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1])
  }
  assert.deepEqual([...EFFECTS], table('Effects'))
  assert.deepEqual([...WARNINGS], table('Warning codes'))
})

test('corpus: every agent, every entry decodes to its kind, filters', () => {
  const all = corpus()
  assert.ok(all.length >= 100, `corpus: ${all.length} entries`)
  assert.deepEqual([...new Set(all.map((e) => e.agent))].sort(), [...AGENTS].sort())
  for (const e of all) {
    const opts = {}
    if (!e.names_event) opts.event = e.event
    if (e.variant) opts.variant = e.variant
    assert.equal(decode(e.agent, e.payload, opts).kind, e.kind, e.name)
  }
  const codexPre = corpus({ agent: 'codex', kind: 'tool.pre' })
  assert.ok(codexPre.length > 0)
  assert.ok(codexPre.every((e) => e.agent === 'codex' && e.kind === 'tool.pre'))
  assert.deepEqual(corpus({ agent: 'codex' }), all.filter((e) => e.agent === 'codex'))
  assert.throws(() => corpus({ agent: 'nobody' }), (e) => e instanceof AgentHooksError && e.code === 'unknown_provider')
})

// Every behaviour vector runs through predict in test/simulate.test.mjs.
test('predict: the decision form encodes for the payload first; a Response is an answer', () => {
  const e = corpus({ agent: 'claude-code', kind: 'tool.pre' }).find((x) => x.names_event)
  const p = predict({ agent: 'claude-code', payload: e.payload, decision: Decision.deny('nope') })
  assert.equal(p.effect, 'tool_blocked')
  assert.match(p.model_sees, /nope/)
  assert.equal(typeof p.answer.stdout, 'string')
  const again = predict({ agent: 'claude-code', event: p.event, answer: { ...p.answer, exit_code: p.answer.exit, exit: undefined } })
  assert.equal(again.effect, 'tool_blocked')
  // An ask: the user is asked at a terminal; headless, nobody can be.
  const ask = predict({ agent: 'claude-code', payload: e.payload, decision: Decision.ask('sure?') })
  assert.equal(ask.effect, 'asks_user')
  const headless = predict({ agent: 'claude-code', event: ask.event, answer: ask.answer, mode: 'headless' })
  assert.notEqual(headless.effect, 'asks_user')
  assert.throws(() => predict({ agent: 'claude-code' }), (err) => err.code === 'invalid_argument')
})

test('payloads: one case per scenario and agent, skipped where the agent has no such event', () => {
  const cases = payloads([Scenario.shell('ls'), Scenario.stop()])
  assert.equal(cases.length, 2 * AGENTS.length)
  assert.deepEqual(cases.slice(0, AGENTS.length).map((c) => c.agent), [...AGENTS])
  for (const c of cases.filter((x) => !x.skipped)) assert.ok(c.event && c.payload, c.agent)
  assert.deepEqual(payloads(Scenario.shell('ls'), { agents: ['codex'] }).map((c) => c.agent), ['codex'])
})

test('runRouter / acrossAgents: a right guard blocks everywhere and lets the rest run', async () => {
  const r = guard()
  const blocked = await acrossAgents(r, Scenario.shell('rm -rf build'))
  assert.equal(blocked.length, AGENTS.length)
  assertBlockedEverywhere(blocked)
  assertNoEmptyAllow(blocked)
  for (const o of blocked.filter((x) => !x.skipped)) {
    assert.deepEqual(o.argv, ['agenthooks', 'run', `--provider=${o.agent}`, `--event=${o.event}`])
    assert.equal(typeof o.answer.stdout, 'string')
  }
  const runs = await acrossAgents(r, Scenario.shell('cat README.md'))
  assertRunsEverywhere(runs)
  assertNoEmptyAllow(runs)
  assertEffect(runs, 'tool_runs', 'codex')
  assertEffect(outcomeOf(runs, 'codex'), 'tool_runs')
  fails(() => assertRunsEverywhere(blocked), /does not run cleanly on every agent/, /tool_blocked/)
  fails(() => assertBlockedEverywhere(runs), /not blocked on every agent that can block/, /claude-code PreToolUse/)
})

test('a guard that forgets one agent fails assertBlockedEverywhere, naming that agent and its answer', async () => {
  const outcomes = await acrossAgents(guard({ forget: 'gemini' }), Scenario.shell('rm -rf build'))
  const err = fails(() => assertBlockedEverywhere(outcomes), /not blocked on every agent that can block/, /gemini BeforeTool/, /answer: exit 0/)
  assert.deepEqual(err.outcomes.map((o) => o.agent), ['gemini'])
  assert.doesNotMatch(err.message, /codex|claude-code/)
  assert.equal(effectOf(outcomes, 'gemini'), err.outcomes[0].prediction.effect)
})

test('a guard that allows everything fails assertNoEmptyAllow on the agents that skip approval', async () => {
  const outcomes = await acrossAgents(allowAll(), Scenario.shell('ls -la'))
  const err = fails(() => assertNoEmptyAllow(outcomes), /warning `empty_allow` raised/, /claude-code/, /tool_runs_without_prompt/)
  const named = err.outcomes.map((o) => o.agent)
  assert.ok(named.includes('claude-code'), named.join())
  assert.ok(named.every((a) => outcomes.find((o) => o.agent === a).prediction.warnings.some((w) => w.code === 'empty_allow')))
  // The same allow is fine where the agent does not skip its prompt for it.
  assert.ok(named.length < outcomes.filter((o) => !o.skipped).length, named.join())
  fails(() => assertNoWarning(outcomes, 'empty_allow'), /empty_allow/)
  fails(() => assertEffectEverywhere(outcomes, 'tool_runs'), /not `tool_runs` everywhere/)
})

test('assertions never pass on nothing, and check their arguments', async () => {
  fails(() => assertRan([]), /nothing to check/)
  fails(() => assertNoEmptyAllow([]), /nothing to check/)
  const skippedOnly = [{ agent: 'codex', scenario: 'x', event: '', skipped: 'no such event' }]
  fails(() => assertBlockedEverywhere(skippedOnly), /nothing to check/)
  // SessionStart cannot block anywhere: nothing to check either.
  const start = await runRouter(guard(), 'claude-code', Scenario.payload('claude-code', corpus({ agent: 'claude-code', kind: 'session.start' })[0].payload))
  fails(() => assertBlockedEverywhere([start]), /no agent that ran can block/)
  const o = await runRouter(guard(), 'codex', Scenario.shell('rm -rf /'))
  assert.throws(() => assertEffect(o, 'tool_blockd'), (e) => e.code === 'invalid_argument' && /unknown effect/.test(e.message))
  assert.throws(() => assertNoWarning([o], 'nope'), (e) => e.code === 'invalid_argument')
  fails(() => assertEffect([o], 'tool_blocked', 'cursor'), /no outcome of cursor/)
  fails(() => assertEffect(o, 'tool_runs'), /want `tool_runs`/, /codex PreToolUse/)
})

test('runRouter takes a corpus entry, a native payload (object, text, bytes) or a scenario', async () => {
  const r = guard()
  for (const e of corpus({ kind: 'tool.pre' })) {
    const o = await runRouter(r, e.agent, e)
    assert.equal(o.skipped, undefined, e.name)
    assert.equal(o.scenario, e.name)
    assert.equal(o.event, e.event)
    assert.ok(o.prediction, e.name)
    const isRm = JSON.stringify(e.payload).includes('rm -rf')
    if (!isRm) assert.ok(!['tool_blocked', 'asks_user'].includes(o.prediction.effect), `${e.name}: ${o.prediction.effect}`)
  }
  const [c] = corpus({ agent: 'codex', kind: 'tool.pre' })
  const payload = JSON.parse(JSON.stringify(c.payload).replace(/"command":"[^"]*"/, '"command":"rm -rf ~"'))
  for (const input of [payload, JSON.stringify(payload), Buffer.from(JSON.stringify(payload))]) {
    assertEffect(await runRouter(r, 'codex', input, { event: c.event }), 'tool_blocked')
  }
  await assert.rejects(runRouter(r, 'codex', c.names_event ? {} : payload), (e) => e.code === 'invalid_argument')
  const skipped = await runRouter(r, 'codex', Scenario.payload('claude-code', payload, c.event))
  assert.ok(skipped.skipped)
  await assert.rejects(runRouter(r, 'codex', 'not json'), (e) => e.code === 'invalid_argument')
  await assert.rejects(runRouter({}, 'codex', payload), (e) => e.code === 'invalid_argument')
  await assert.rejects(runRouter(r, 'nobody', payload), (e) => e.code === 'unknown_provider')
})

// A Cursor call with the agent's tool-call id: the same hook seeing it twice
// is a double delivery, answered the no-op the second time (dedupe).
function cursorCall() {
  const e = corpus({ agent: 'cursor', kind: 'tool.pre' }).find((x) => x.name === 'cursor/pretooluse-shell')
  assert.ok(e && e.payload.tool_use_id, 'cursor/pretooluse-shell has a tool_use_id')
  return { ...e, payload: { ...e.payload, tool_input: { ...e.payload.tool_input, command: 'rm -rf build' } } }
}

test('runRouter: each run has its own state unless stateDir is shared (Cursor dedupe)', async () => {
  const r = guard()
  const s = cursorCall()
  assertEffect(await runRouter(r, 'cursor', s), 'tool_blocked')
  assertEffect(await runRouter(r, 'cursor', s), 'tool_blocked')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-kit-state-'))
  try {
    assertEffect(await runRouter(r, 'cursor', s, { stateDir: dir }), 'tool_blocked')
    const second = await runRouter(r, 'cursor', s, { stateDir: dir })
    assert.deepEqual(second.response_notes.map((n) => n.code), ['deduplicated'])
    assert.notEqual(second.prediction.effect, 'tool_blocked')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('runHook / acrossAgents(argv): a hook program run as each agent runs it', async () => {
  const blocked = await acrossAgents(hook('guard'), [Scenario.shell('rm -rf build'), Scenario.shell('cat README.md')])
  assert.equal(blocked.length, 2 * AGENTS.length)
  assertRan(blocked)
  assertBlockedEverywhere(blocked.slice(0, AGENTS.length))
  assertRunsEverywhere(blocked.slice(AGENTS.length))
  assertNoEmptyAllow(blocked)
  const forgot = await acrossAgents(hook('forgets-gemini'), Scenario.shell('rm -rf build'))
  const err = fails(() => assertBlockedEverywhere(forgot), /gemini BeforeTool/)
  assert.deepEqual(err.outcomes.map((o) => o.agent), ['gemini'])
  const allow = await acrossAgents(hook('allow'), Scenario.shell('ls'), { agents: ['claude-code', 'codex'] })
  assert.deepEqual(allow.map((o) => o.agent), ['claude-code', 'codex'])
  fails(() => assertNoEmptyAllow(allow), /claude-code PreToolUse/)
  // Twice in a row on Cursor: each run has its own state (no dedupe).
  for (let i = 0; i < 2; i++) assertEffect(await runHook(hook('guard'), 'cursor', cursorCall()), 'tool_blocked')
})

test('runHook: a hook that cannot start or crashes fails the assertions', async () => {
  const missing = await runHook([path.join(HERE, 'hooks/no-such-hook'), 'agenthooks', 'run'], 'codex', Scenario.shell('ls'))
  assert.ok(missing.run_error, JSON.stringify(missing))
  fails(() => assertRan([missing]), /the hook did not run/, /codex/)
  fails(() => assertRunsEverywhere(missing), /the hook did not run/)
  // Killed before answering: the shell reports 137, a failed run that Claude Code lets through.
  const crash = await runHook(hook('crash'), 'claude-code', Scenario.shell('rm -rf build'))
  assert.ok(crash.prediction.warnings.some((w) => w.code === 'hook_failed'), JSON.stringify(crash.prediction))
  fails(() => assertBlockedEverywhere(crash), /not blocked/, /exit 137/)
  fails(() => assertRunsEverywhere(crash), /hook_failed/)
  await assert.rejects(runHook([], 'codex', Scenario.shell('ls')), (e) => e.code === 'invalid_argument')
})

test('capability agrees: agents that cannot block are not held to a block', async () => {
  const outcomes = await acrossAgents(guard(), Scenario.shell('rm -rf build'))
  for (const o of outcomes.filter((x) => !x.skipped)) {
    assert.equal(kit.canBlock(o.agent, o.event), capability(o.agent, o.event).can_block)
  }
})
