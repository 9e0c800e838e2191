// examples/node/guard.mjs behaves exactly like examples/rust/guard: both
// answer the same real-shaped payloads (taken from the fixtures of every
// agent) with the same stdout, stderr and exit code.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { capability } from 'agenthooks'
import {
  Scenario,
  acrossAgents,
  assertBlockedEverywhere,
  assertEffect,
  assertEffectEverywhere,
  assertNoEmptyAllow,
  assertRunsEverywhere,
  corpus,
  describeOutcome,
} from 'agenthooks/testing'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const REPO = path.resolve(HERE, '../../..')
const NODE_GUARD = path.join(REPO, 'examples/node/guard.mjs')
const RUST_GUARD = process.env.AH_RUST_GUARD ?? path.join(REPO, 'target/debug/guard')
const SHOWCASE = ['rm -rf build/', 'git push --force origin main', 'ls -la', 'cat README.md', 'npm install']

function cases(agent) {
  const dir = path.join(REPO, 'fixtures', agent)
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
    .filter((c) => c.payload && c.expect.event)
}

function replaceString(v, old, neu) {
  if (Array.isArray(v)) return v.map((x) => replaceString(x, old, neu))
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replaceString(x, old, neu)]))
  if (typeof v === 'string' && v === old) return neu
  return v
}

function inputs() {
  const out = []
  for (const agent of fs.readdirSync(path.join(REPO, 'fixtures')).sort()) {
    if (agent === 'router' || !fs.statSync(path.join(REPO, 'fixtures', agent)).isDirectory()) continue
    let all
    try {
      all = cases(agent)
    } catch {
      continue
    }
    const pick = (pred) => all.find((c) => pred(c.expect.event))
    const shell = pick((e) => e.kind === 'tool.pre' && e.tool?.canonical === 'shell' && e.tool.command)
    if (shell) {
      for (const cmd of SHOWCASE) {
        out.push({ agent, title: `${agent} ${cmd}`, event: shell.event, payload: replaceString(shell.payload, shell.expect.event.tool.command, cmd) })
      }
    }
    for (const c of [pick((e) => e.kind === 'session.start'), pick((e) => e.kind === 'agent.stop' && !e.stop?.previously_continued)]) {
      if (c) out.push({ agent, title: c.name, event: c.event, payload: c.payload })
    }
  }
  return out
}

function runHook(program, agent, event, payload, stateDir) {
  const args = ['agenthooks', 'run', `--provider=${agent}`]
  if (event) args.push(`--event=${event}`)
  return new Promise((resolve, reject) => {
    const p = spawn(program, args, { env: { ...process.env, AGENTHOOKS_STATE_DIR: stateDir } })
    let stdout = ''
    let stderr = ''
    p.stdout.on('data', (d) => (stdout += d))
    p.stderr.on('data', (d) => (stderr += d))
    p.on('error', reject)
    p.on('close', (code) => resolve({ stdout, stderr, code }))
    p.stdin.end(JSON.stringify(payload))
  })
}

test('the Node guard answers like the Rust guard', { skip: fs.existsSync(RUST_GUARD) ? false : `SKIPPED: ${RUST_GUARD} not built (cargo build -p guard)` }, async () => {
  const list = inputs()
  assert.ok(list.length >= 20, `inputs: ${list.length}`)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-guard-'))
  try {
    // Two at a time (2-core machines); each guard keeps its own loop-guard state.
    for (let i = 0; i < list.length; i += 2) {
      await Promise.all(
        list.slice(i, i + 2).map(async (c, j) => {
          const dir = path.join(tmp, String(i + j))
          const [n, r] = await Promise.all([
            runHook(NODE_GUARD, c.agent, c.event, c.payload, `${dir}-node`),
            runHook(RUST_GUARD, c.agent, c.event, c.payload, `${dir}-rust`),
          ])
          assert.deepEqual(n, r, c.title)
        }),
      )
    }
    console.log(`guard parity: ${list.length} payloads`)
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
})

// The same guard through agenthooks/testing: run out of process as each of
// the eight agents runs its hooks, judged by what each agent then does.
// The argv `agenthooks install` writes: the provider, and the event for
// payloads that do not name theirs.
const GUARD_ARGV = [process.execPath, NODE_GUARD, 'agenthooks', 'run', '--provider={agent}', '--event={event}']

const can = (o, modifier) => capability(o.agent, o.event).modifiers.includes(modifier)

test('the Node guard on every agent (agenthooks/testing)', async () => {
  const scenarios = {
    rm: Scenario.shell('rm -rf build/'),
    push: Scenario.shell('git push --force origin main'),
    npm: Scenario.shell('npm install'),
    ls: Scenario.shell('ls -la'),
    cat: Scenario.shell('cat README.md'),
    prompt: Scenario.prompt('Fix the flaky test'),
    stop: Scenario.stop(),
  }
  const names = Object.keys(scenarios)
  const all = await acrossAgents(GUARD_ARGV, Object.values(scenarios))
  const by = Object.fromEntries(names.map((n, i) => [n, all.slice(i * 8, i * 8 + 8)]))
  assert.equal(all.length, names.length * 8)

  // Destructive commands never run, and nowhere as an accidental allow.
  assertBlockedEverywhere(by.rm)
  assertNoEmptyAllow(by.rm)
  // A force-push is asked about where the agent can ask, else denied (the
  // guard's ask fallback): it never just runs.
  for (const o of by.push) assert.ok(['asks_user', 'tool_blocked'].includes(o.prediction.effect), describeOutcome(o))
  assertEffect(by.push, 'asks_user', 'claude-code')
  assertEffect(by.push, 'tool_blocked', 'codex')
  // `npm install` becomes `npm ci` wherever the agent takes a rewritten input.
  for (const o of by.npm) {
    if (can(o, 'updated_input')) assertEffect(o, 'tool_runs_with_input_rewritten')
    else assert.ok(!['tool_blocked', 'asks_user'].includes(o.prediction.effect), describeOutcome(o))
  }
  // `ls` is approved (no prompt where the agent would ask); anything else is
  // left to the agent, never as an empty allow.
  assertRunsEverywhere(by.ls)
  assertEffect(by.ls, 'tool_runs_without_prompt', 'claude-code')
  assertRunsEverywhere(by.cat)
  assertNoEmptyAllow(by.cat)
  assertRunsEverywhere(by.prompt)
  // Stopping before the tests ran: the agent is sent back to run them.
  assertEffectEverywhere(by.stop, 'agent_continues')
})

test('the Node guard adds its rule at every session start that takes context (agenthooks/testing)', async () => {
  const outcomes = await acrossAgents(GUARD_ARGV, corpus({ kind: 'session.start' }))
  const ran = outcomes.filter((o) => !o.skipped)
  assert.ok(ran.length >= 8, `session starts: ${ran.length}`)
  for (const o of ran) {
    if (!can(o, 'context')) continue
    assertEffect(o, 'context_injected')
    assert.match(o.prediction.model_sees ?? '', /run the test suite/, describeOutcome(o))
  }
  assert.ok(ran.some((o) => can(o, 'context')))
})
