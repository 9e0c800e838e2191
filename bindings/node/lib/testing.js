'use strict'
// agenthooks/testing: test a hook against every agent from `node:test` or
// vitest. The fixture corpus, each agent's payload for a scenario and the
// behaviour reader (what each agent DOES with a wire answer) are the
// core's (`agenthooks::simulate::json` through src/testing.rs and the
// package's fixtureCorpus / scenarioPayloads / predict); a router
// runs through this package's own run entry (`run`, the session `main`
// drives), a hook program through the core's simulate (spawned as each
// agent spawns its hooks). Assertions throw node:assert's AssertionError
// naming each offending agent with its wire answer and effect.
// Types: ./testing.d.ts.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { AssertionError } = require('node:assert')
const ah = require('./index.js')
const failsafe = require('./failsafe.js')

const native = failsafe.loadNative()

/** Every agent (provider id), in the core's order. */
const AGENTS = ah.PROVIDERS

/** Every effect name (fixtures/simulate/README.md). */
const EFFECTS = Object.freeze([
  'tool_runs',
  'tool_runs_without_prompt',
  'tool_runs_with_input_rewritten',
  'tool_blocked',
  'asks_user',
  'prompt_blocked',
  'prompt_continues',
  'prompt_rewritten',
  'context_injected',
  'agent_continues',
  'agent_stops',
  'output_replaced',
  'no_effect',
])

/** Every warning code (fixtures/simulate/README.md). */
const WARNINGS = Object.freeze([
  'empty_allow',
  'json_on_stderr',
  'stderr_read_as_answer',
  'json_ignored_on_exit',
  'invalid_json',
  'plain_text_stdout',
  'stdout_injected_verbatim',
  'unknown_field',
  'ignored_field',
  'unsupported_decision',
  'missing_reason',
  'reason_dropped',
  'hook_failed',
  'fail_open',
  'fail_closed',
  'timed_out',
  'crashed',
  'exit_code_ignored',
  'hangs_headless',
])

const EFFECT_SET = new Set(EFFECTS)
const WARNING_SET = new Set(WARNINGS)

function invalid(message) {
  return new ah.AgentHooksError('invalid_argument', message)
}

// The simulate answer; `{"error": ...}` throws AgentHooksError with the
// core's code.
function parseAnswer(text) {
  const out = JSON.parse(text)
  if (out && typeof out === 'object' && out.error && typeof out.error === 'object') {
    const { code, message } = out.error
    throw new ah.AgentHooksError(String(code ?? 'invalid_argument'), String(message ?? code ?? 'error'))
  }
  return out
}

// `warnings` is always an array (the core leaves an empty one out).
function prediction(p) {
  if (isPlainObject(p) && !Array.isArray(p.warnings)) p.warnings = []
  return p
}

function outcome(o) {
  if (o.prediction) prediction(o.prediction)
  return o
}

function isPlainObject(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && !(x instanceof Uint8Array)
}

// ---------------------------------------------------------------- corpus

/**
 * The fixture corpus shipped in the core: every real-shaped payload of
 * every agent, `{agent, name, event, kind, variant?, names_event,
 * payload}`; `filter` = `{agent?, kind?}` (any spelling of a kind).
 */
function corpus(filter = {}) {
  if (!isPlainObject(filter)) throw invalid('corpus: expected {agent?, kind?}')
  const req = {}
  if (filter.agent !== undefined) req.agent = filter.agent
  if (filter.kind !== undefined) req.kind = filter.kind
  return ah.fixtureCorpus(req).fixtures
}

// ---------------------------------------------------------------- scenarios

/** Builders of the core's scenarios (what happens on the agent side). */
const Scenario = Object.freeze({
  /** A shell command about to run (`tool.pre`). */
  shell: (command, name) => named({ event: 'tool.pre', tool: 'shell', command: String(command) }, name),
  /** A file edit about to run. */
  edit: (file, name) => named({ event: 'tool.pre', tool: 'file.edit', path: String(file) }, name),
  /** A file read about to run. */
  read: (file, name) => named({ event: 'tool.pre', tool: 'file.read', path: String(file) }, name),
  /** A submitted prompt. */
  prompt: (text, name) => named({ event: 'prompt.submit', prompt: String(text) }, name),
  /** The agent is about to stop. */
  stop: (name) => named({ event: 'stop' }, name),
  /** One agent's native payload, sent as is (`event`: its native event name, when the payload does not carry it). */
  payload: (agent, payload, event, name) => {
    const s = { agent: String(agent), payload }
    if (event !== undefined && event !== null) s.event = String(event)
    return named(s, name)
  },
})

function named(s, name) {
  if (name !== undefined && name !== null) s.name = String(name)
  return s
}

const SCENARIO_KEYS = new Set(['name', 'event', 'tool', 'command', 'path', 'prompt', 'agent', 'payload'])

function isScenario(x) {
  if (!isPlainObject(x)) return false
  const keys = Object.keys(x)
  return keys.length > 0 && keys.every((k) => SCENARIO_KEYS.has(k)) && ('event' in x || 'payload' in x)
}

function isCorpusEntry(x) {
  return isPlainObject(x) && 'names_event' in x && 'payload' in x && 'agent' in x && 'event' in x
}

// One input (a scenario, a corpus entry, or `agent`'s native payload as an
// object, JSON text or bytes) as a core scenario, plus the variant a corpus
// payload needs.
function scenarioOf(input, agent, event) {
  if (isCorpusEntry(input)) {
    return { scenario: { name: input.name, agent: input.agent, payload: input.payload, event: input.event }, variant: input.variant }
  }
  if (isScenario(input)) {
    const s = { ...input }
    if (s.payload !== undefined && s.agent === undefined) {
      if (!agent) throw invalid('a payload scenario needs its agent: Scenario.payload(agent, payload)')
      s.agent = agent
    }
    return { scenario: s, variant: undefined }
  }
  let payload = input
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8')
    try {
      payload = JSON.parse(text)
    } catch (e) {
      throw invalid(`the payload is not JSON (${e.message}); run() answers raw bytes`)
    }
  }
  if (!isPlainObject(payload)) throw invalid('expected a scenario, a corpus entry or a payload object')
  if (!agent) throw invalid('a native payload needs its agent')
  const s = { agent, payload }
  if (event !== undefined && event !== null) s.event = String(event)
  return { scenario: s, variant: undefined }
}

function scenarioList(scenarios, agent, event) {
  if (scenarios === 'builtin') return { scenarios: 'builtin', variants: [] }
  const list = Array.isArray(scenarios) ? scenarios : [scenarios]
  if (list.length === 0) throw invalid('no scenario given')
  const built = list.map((s) => scenarioOf(s, agent, event))
  return { scenarios: built.map((b) => b.scenario), variants: built.map((b) => b.variant) }
}

function agentList(agents) {
  if (agents === undefined || agents === null) return [...AGENTS]
  const list = Array.isArray(agents) ? agents : [agents]
  return list.map((a) => ah.parseProvider(String(a)))
}

/**
 * Each agent's native payload for each scenario: `[{agent, scenario,
 * event, tool, payload} | {agent, scenario, skipped}]`, scenario by
 * scenario, agent by agent. `options` = `{agents?, cwd?}`.
 */
function payloads(scenarios, options = {}) {
  const { scenarios: list } = scenarioList(scenarios)
  return payloadCases(list, agentList(options.agents), options.cwd)
}

function payloadCases(scenarios, agents, cwd) {
  const req = { scenarios, agents }
  if (cwd !== undefined) req.cwd = String(cwd)
  return ah.scenarioPayloads(req).cases
}

// ---------------------------------------------------------------- predict

// An answer as the reader takes it: `{stdout, stderr, exit, timed_out}`;
// a Response (`exit_code`, `notes`) is accepted as is.
function answerOf(a) {
  if (!isPlainObject(a)) throw invalid('predict: `answer` must be {stdout, stderr, exit, timed_out?}')
  const out = { stdout: String(a.stdout ?? ''), stderr: String(a.stderr ?? '') }
  const exit = a.exit !== undefined ? a.exit : a.exit_code
  out.exit = exit === undefined ? 0 : exit
  if (a.timed_out) out.timed_out = true
  return out
}

/**
 * What an agent does with an answer: `{agent, event, tool?, answer}` (the
 * hook's stdout, stderr, exit code; a `run()` Response works too), or
 * `{agent, payload, event?, decision, policy?}` (the decision is encoded
 * for that payload first; the answer comes back in `answer`; a Decision
 * and a Policy are taken as they are); `mode: 'headless'` reads it as a
 * non-interactive run. Synchronous. Returns the
 * Prediction `{agent, event, kind, effect, decision?, model_sees?,
 * user_sees?, updated_input?, warnings}`.
 */
function predict(request) {
  if (!isPlainObject(request)) throw invalid('predict: expected a request object')
  const req = { ...request }
  if (req.answer !== undefined) req.answer = answerOf(req.answer)
  for (const k of Object.keys(req)) if (req[k] === undefined || req[k] === null) delete req[k]
  return prediction(ah.predict(req))
}

// ---------------------------------------------------------------- runs

function isRouter(x) {
  return x instanceof ah.Router || (x !== null && typeof x === 'object' && typeof x.decide === 'function')
}

function freshStateDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'agenthooks-test-'))
}

function removeDir(dir) {
  try {
    fs.rmSync(dir, { recursive: true, force: true })
  } catch {
    // a leftover temp dir is not the test's failure
  }
}

// One payload case answered by the router through `run` (what `main` does
// for one hook process), then read as the agent would.
async function routerCase(router, c, variant, options) {
  if (c.skipped !== undefined) return { agent: c.agent, scenario: c.scenario, event: '', skipped: c.skipped }
  const argv = ['agenthooks', 'run', `--provider=${c.agent}`, `--event=${c.event}`]
  if (variant) argv.push(`--variant=${variant}`)
  const own = options.stateDir === undefined || options.stateDir === null
  const stateDir = own ? freshStateDir() : String(options.stateDir)
  const started = Date.now()
  let resp
  try {
    resp = await ah.run(router, argv, JSON.stringify(c.payload), { ...ah.parseArgs(argv), stateDir })
  } finally {
    if (own) removeDir(stateDir)
  }
  const answer = { stdout: resp.stdout, stderr: resp.stderr, exit: resp.exit_code }
  const req = { agent: c.agent, event: c.event, answer }
  if (c.tool !== undefined && c.tool !== null) req.tool = c.tool
  const o = { agent: c.agent, scenario: c.scenario, event: c.event }
  if (c.tool !== undefined && c.tool !== null) o.tool = c.tool
  o.argv = argv
  o.payload = c.payload
  o.answer = answer
  o.duration_ms = Date.now() - started
  o.prediction = prediction(ah.predict(req))
  o.notes = []
  o.response_notes = resp.notes ?? []
  return o
}

async function routeAll(router, scenarios, variants, agents, options) {
  const cases = payloadCases(scenarios, agents, options.cwd)
  const out = []
  // One at a time: handlers with shared state see the calls in order.
  for (let i = 0; i < cases.length; i++) {
    const variant = variants[Math.floor(i / agents.length)]
    out.push(await routerCase(router, cases[i], variant, options))
  }
  return out
}

// The core gives each hook run its own fresh state root (or
// `options.stateDir`, shared by every run), so runs need no serializing.
function simulateRuns(command, scenarios, agents, options) {
  if (!Array.isArray(command) || command.length === 0 || !command.every((w) => typeof w === 'string')) {
    throw invalid('the hook command must be a non-empty array of strings (argv)')
  }
  const req = { command, scenarios, agents }
  if (options.cwd !== undefined) req.cwd = String(options.cwd)
  if (options.timeoutMs !== undefined) req.timeout_ms = options.timeoutMs
  if (options.stateDir !== undefined && options.stateDir !== null) req.state_dir = path.resolve(String(options.stateDir))
  return native.simulateJsonAsync(JSON.stringify(req)).then((text) => parseAnswer(text).outcomes.map(outcome))
}

/**
 * The router's answer to one agent's payload, in-process, through `run`
 * (the same session `main` runs: argv, decode, handlers within the
 * deadline, fail policy, encoding), and what that agent does with it.
 * `input`: a scenario (`Scenario.shell(...)`), a corpus entry, or the
 * agent's native payload (object, JSON text, bytes; `options.event` names
 * its native event when the payload does not). `options` = `{event?, cwd?,
 * stateDir?}`: each run gets a fresh state dir unless `stateDir` is given
 * (then dedupe and the stop-loop counter carry over between runs).
 * Resolves to an Outcome; `skipped` when the agent has no such event.
 */
async function runRouter(router, agent, input, options = {}) {
  if (!isRouter(router)) throw invalid('runRouter: expected a Router')
  const id = ah.parseProvider(String(agent))
  const { scenarios, variants } = scenarioList([input], id, options.event)
  const [o] = await routeAll(router, scenarios, variants, [id], options)
  return o
}

/**
 * Runs a hook program (`argv`; `{agent}` and `{event}` in any word become
 * the agent id and the native event) as `agent` runs its hooks: its shell,
 * its hook variables, the payload on stdin, its default timeout (or
 * `options.timeoutMs`), and reads the answer as that agent would.
 * `input` as for `runRouter`. `options` = `{event?, cwd?, timeoutMs?,
 * stateDir?}`. Resolves to an Outcome (`run_error` when the program could
 * not start).
 */
async function runHook(argv, agent, input, options = {}) {
  const id = ah.parseProvider(String(agent))
  const { scenarios } = scenarioList([input], id, options.event)
  const [o] = await simulateRuns(argv, scenarios, [id], options)
  return o
}

/**
 * Runs a router (in-process) or a hook program (argv, out of process) on
 * every agent (`options.agents` to pick) for one scenario, a list, or
 * `'builtin'` (the core's standard set). Resolves to the Outcomes,
 * scenario by scenario, agent by agent (agents without such an event are
 * `skipped`).
 */
async function acrossAgents(target, scenarios, options = {}) {
  const agents = agentList(options.agents)
  const list = scenarioList(scenarios)
  if (isRouter(target)) return routeAll(target, list.scenarios, list.variants, agents, options)
  if (Array.isArray(target)) return simulateRuns(target, list.scenarios, agents, options)
  throw invalid('acrossAgents: expected a Router or a hook argv (array of strings)')
}

// ---------------------------------------------------------------- queries

function listOf(outcomes, what) {
  if (Array.isArray(outcomes)) return outcomes
  if (isPlainObject(outcomes) && typeof outcomes.agent === 'string') return [outcomes]
  throw invalid(`${what}: expected an Outcome or an array of Outcomes`)
}

/** The outcome of one agent (the first, for several scenarios), or undefined. */
function outcomeOf(outcomes, agent) {
  const id = ah.parseProvider(String(agent))
  return listOf(outcomes, 'outcomeOf').find((o) => o.agent === id)
}

/** The effect on one agent, or undefined when it did not run. */
function effectOf(outcomes, agent) {
  return outcomeOf(outcomes, agent)?.prediction?.effect
}

/** Whether the agent's native event can block at all (its capability). */
function canBlock(agent, event) {
  return ah.capability(agent, event).can_block
}

function warningCodes(o) {
  return (o.prediction?.warnings ?? []).map((w) => w.code)
}

// ---------------------------------------------------------------- messages

function clip(s, n = 240) {
  const t = String(s ?? '')
  return t.length > n ? `${t.slice(0, n)}... (${t.length} chars)` : t
}

/** The wire answer in one line: exit code, stdout, stderr. */
function describeAnswer(a) {
  if (!a) return '(no answer)'
  let s = a.timed_out ? 'timed out' : `exit ${a.exit === null || a.exit === undefined ? 'none (signal)' : a.exit}`
  s += `, stdout ${a.stdout ? JSON.stringify(clip(a.stdout)) : '(empty)'}`
  if (a.stderr) s += `, stderr ${JSON.stringify(clip(a.stderr))}`
  return s
}

/** One outcome in one line: agent, event, scenario, effect, warnings, answer. */
function describeOutcome(o) {
  const head = `${o.agent} ${o.event ? `${o.event}` : '(no event)'}${o.tool ? ` [${o.tool}]` : ''}, scenario ${JSON.stringify(o.scenario)}`
  if (o.skipped !== undefined) return `${head}: skipped (${o.skipped})`
  if (o.run_error) return `${head}: did not run: ${o.run_error}`
  const p = o.prediction
  const w = warningCodes(o)
  let s = `${head}: ${p ? p.effect : '(no prediction)'}`
  if (p?.decision) s += ` (decision ${p.decision})`
  if (w.length) s += `, warnings: ${w.join(', ')}`
  return `${s}\n      answer: ${describeAnswer(o.answer)}`
}

function fail(operator, what, bad, all) {
  const lines = bad.map((o) => `  - ${describeOutcome(o)}`)
  const e = new AssertionError({ message: `${what}:\n${lines.join('\n')}`, operator })
  e.outcomes = bad
  e.checked = all
  throw e
}

function failEmpty(operator, what) {
  const e = new AssertionError({ message: what, operator })
  e.outcomes = []
  throw e
}

// ---------------------------------------------------------------- assertions

// Outcomes whose hook ran (skipped agents aside); fails on a hook that
// could not run and when nothing ran at all (a test that checks nothing).
function ranOutcomes(outcomes, operator) {
  const list = listOf(outcomes, operator)
  const broken = list.filter((o) => o.skipped === undefined && (o.run_error || !o.prediction))
  if (broken.length) fail(operator, 'the hook did not run', broken, list)
  const ran = list.filter((o) => o.skipped === undefined)
  if (ran.length === 0) {
    failEmpty(operator, `nothing to check: no outcome ran (${list.length} given${list.length ? ', all skipped' : ''})`)
  }
  return ran
}

function checkEffect(effect) {
  if (!EFFECT_SET.has(effect)) throw invalid(`unknown effect \`${effect}\` (${EFFECTS.join(', ')})`)
}

/** Every hook run started (skipped agents aside) and at least one ran. */
function assertRan(outcomes) {
  ranOutcomes(outcomes, 'assertRan')
}

// The core's verdict view of an outcome (the fields it reads).
function verdictView(o) {
  const d = { agent: o.agent, scenario: o.scenario ?? '', event: o.event ?? '' }
  if (o.skipped !== undefined) d.skipped = String(o.skipped)
  if (o.run_error) d.run_error = String(o.run_error)
  const p = o.prediction
  if (p) d.prediction = { effect: p.effect, kind: p.kind, warnings: warningCodes(o).map((code) => ({ code })) }
  return d
}

/**
 * The core's verdict of `assertion` (`blocked_everywhere`,
 * `runs_everywhere`, `no_empty_allow`) over outcomes: `{assertion, holds,
 * checked, offending: [{index, agent, scenario, event, reason}],
 * nothing_checked?}` (docs/testing.md; the same rules in every language).
 */
function verdict(assertion, outcomes) {
  const list = listOf(outcomes, 'verdict')
  const req = { assertion: String(assertion), outcomes: list.map(verdictView) }
  return parseAnswer(native.verdictJson(JSON.stringify(req)))
}

function check(operator, assertion, what, outcomes) {
  const list = listOf(outcomes, operator)
  const v = verdict(assertion, list)
  if (v.holds) return
  if (v.offending.length === 0) failEmpty(operator, `nothing to check: ${v.nothing_checked}`)
  const lines = v.offending.map((b) => `  - ${describeOutcome(list[b.index])}\n      -> ${b.reason}`)
  const e = new AssertionError({ message: `${what}:\n${lines.join('\n')}`, operator })
  e.outcomes = v.offending.map((b) => list[b.index])
  e.checked = list
  e.verdict = v
  throw e
}

/**
 * Every agent whose event can block (its capability) blocked it: the
 * tool call or the prompt does not go ahead. Agents that cannot block the
 * event are not checked; fails when none can, and on a hook that did not
 * run (the core's verdict `blocked_everywhere`).
 */
function assertBlockedEverywhere(outcomes) {
  check('assertBlockedEverywhere', 'blocked_everywhere', 'not blocked on every agent that can block', outcomes)
}

/**
 * The action goes ahead on every agent (a tool runs, a prompt reaches the
 * model, a stop stops): not blocked, not asking the user, no agent_stops
 * outside a stop event, and the agent does not count the run as failed
 * (hook_failed, crashed, timed_out, fail_open, fail_closed).
 */
function assertRunsEverywhere(outcomes) {
  check('assertRunsEverywhere', 'runs_everywhere', 'does not run cleanly on every agent', outcomes)
}

/** No outcome carries this warning code. */
function assertNoWarning(outcomes, code) {
  if (!WARNING_SET.has(code)) throw invalid(`unknown warning code \`${code}\` (${WARNINGS.join(', ')})`)
  const ran = ranOutcomes(outcomes, 'assertNoWarning')
  const bad = ran.filter((o) => warningCodes(o).includes(code))
  if (bad.length) fail('assertNoWarning', `warning \`${code}\` raised`, bad, outcomes)
}

/**
 * No agent sees an empty allow (an allow with nothing else on an event
 * where the agent reads allow as "skip the user's approval": a guard that
 * meant "no opinion" should answer `Decision.noDecision()`).
 */
function assertNoEmptyAllow(outcomes) {
  check('assertNoEmptyAllow', 'no_empty_allow', 'warning `empty_allow` raised', outcomes)
}

/**
 * `assertEffect(outcome, effect)`: the outcome has this effect;
 * `assertEffect(outcomes, effect, agent)`: that agent's outcomes do.
 */
function assertEffect(outcomes, effect, agent) {
  checkEffect(effect)
  let list = listOf(outcomes, 'assertEffect')
  if (agent !== undefined) {
    const id = ah.parseProvider(String(agent))
    list = list.filter((o) => o.agent === id)
    if (list.length === 0) failEmpty('assertEffect', `no outcome of ${id}`)
  }
  const ran = ranOutcomes(list, 'assertEffect')
  const bad = ran.filter((o) => o.prediction.effect !== effect)
  if (bad.length) fail('assertEffect', `want \`${effect}\``, bad, outcomes)
}

/** Every outcome that ran (skipped agents aside) has this effect. */
function assertEffectEverywhere(outcomes, effect) {
  checkEffect(effect)
  const ran = ranOutcomes(outcomes, 'assertEffectEverywhere')
  const bad = ran.filter((o) => o.prediction.effect !== effect)
  if (bad.length) fail('assertEffectEverywhere', `not \`${effect}\` everywhere`, bad, outcomes)
}

module.exports = {
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
  canBlock,
  corpus,
  describeOutcome,
  effectOf,
  outcomeOf,
  payloads,
  predict,
  runHook,
  runRouter,
  verdict,
}
