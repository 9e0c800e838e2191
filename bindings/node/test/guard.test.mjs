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
