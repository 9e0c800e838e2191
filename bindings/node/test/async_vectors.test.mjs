// The async and backfill vectors (fixtures/async/*.json, schema in its
// README): each step through `run` in one fresh state directory with the
// vector's injected ancestor chain, the vector guard and a recording
// observer. The Rust and Python runners run the same files. Then one real
// hook process: `--async` answers at once and the detached child (node
// re-run with the script's argv) finishes after the exit.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

import { Decision, Router, run, parseArgs } from '../lib/index.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const dir = path.join(here, '..', '..', '..', 'fixtures', 'async')
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
const filter = process.env.AH_FIXTURE
const VECTOR_KEYS = new Set(['name', 'description', 'ancestry', 'steps'])
const STEP_KEYS = new Set(['argv', 'stdin', 'expect'])
const EXPECT_KEYS = new Set(['stdout', 'stdout_json', 'stderr_contains', 'exit_code', 'observed'])

function routerRecording(seen) {
  const r = new Router()
  r.onAny((e) => {
    const o = { kind: e.kind, native_name: e.native_name }
    if (e.backfilled) o.backfilled = true
    if (e.prompt !== undefined && e.prompt !== null) o.prompt = e.prompt
    seen.push(o)
  })
  r.onToolPre((e) => ((e.tool?.command ?? '').includes('rm -rf') ? Decision.deny('vector guard: rm -rf is not allowed') : null))
  return r
}

let ran = 0
for (const f of files) {
  const stem = f.replace(/\.json$/, '')
  if (filter && !`async/${stem}`.includes(filter)) continue
  ran++
  test(`async vector ${stem}`, async () => {
    const c = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))
    for (const k of Object.keys(c)) assert.ok(VECTOR_KEYS.has(k), `unknown field ${k}`)
    assert.equal(c.name, `async/${stem}`)
    assert.ok(c.description.trim() && c.steps.length)
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-node-async-'))
    try {
      for (const [i, s] of c.steps.entries()) {
        for (const k of Object.keys(s)) assert.ok(STEP_KEYS.has(k), `unknown field ${k}`)
        const e = s.expect
        for (const k of Object.keys(e)) assert.ok(EXPECT_KEYS.has(k), `unknown field ${k}`)
        assert.ok(('stdout' in e) !== ('stdout_json' in e))
        const seen = []
        // `run` takes the parsed arguments with the state dir and chain;
        // argv that strict parsing refuses (`--async=yes`) runs as given.
        let parsed = null
        try {
          parsed = parseArgs(s.argv)
        } catch {}
        const args = parsed ? { ...parsed, stateDir: state, ancestry: c.ancestry ?? undefined } : undefined
        const r = await run(routerRecording(seen), s.argv, JSON.stringify(s.stdin), args)
        assert.equal(r.exit_code, e.exit_code, `step ${i}: ${r.stderr}`)
        if ('stdout' in e) assert.equal(r.stdout, e.stdout, `step ${i}`)
        else assert.deepEqual(JSON.parse(r.stdout), e.stdout_json, `step ${i}: ${r.stdout}`)
        for (const want of e.stderr_contains ?? []) assert.ok(r.stderr.includes(want), `step ${i}: ${r.stderr}`)
        assert.deepEqual(seen, e.observed, `step ${i}`)
      }
    } finally {
      fs.rmSync(state, { recursive: true, force: true })
    }
  })
}

test('every async vector ran', () => {
  assert.ok(ran > 0 && (filter || ran === files.length), `ran ${ran} of ${files.length}`)
})

const HOOK = `
import fs from 'node:fs'
import { Router, main } from ${JSON.stringify(path.join(here, '..', 'lib', 'index.mjs'))}
const r = new Router()
r.onToolPost(async () => {
  const m = process.env.AH_MARKER
  fs.writeFileSync(m + '.pid', String(process.pid))
  await new Promise((res) => setTimeout(res, Number(process.env.AH_SLEEP_MS)))
  fs.writeFileSync(m, 'done')
})
main(r)
`
const AFTER_TOOL = '{"session_id":"s","cwd":"/w","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"make"},"tool_response":{"llmContent":"ok"}}'

function waitFor(p, ms) {
  const end = Date.now() + ms
  while (Date.now() < end && !fs.existsSync(p)) spawnSync('sleep', ['0.02'])
  return fs.existsSync(p)
}

for (const [sleepMs, timeout, finishes] of [[2500, 5, true], [3000, 1, false]]) {
  test(`an async hook process detaches (handler ${sleepMs} ms, --timeout=${timeout})`, () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-node-async-proc-'))
    try {
      const script = path.join(tmp, 'hook.mjs')
      fs.writeFileSync(script, HOOK)
      const marker = path.join(tmp, 'marker')
      const t = Date.now()
      const p = spawnSync(process.execPath, [script, 'agenthooks', 'run', '--provider=gemini', `--timeout=${timeout}`, '--async'], {
        input: AFTER_TOOL,
        env: { ...process.env, AH_MARKER: marker, AH_SLEEP_MS: String(sleepMs), AGENTHOOKS_STATE_DIR: path.join(tmp, 'state') },
        timeout: 30000,
      })
      const took = Date.now() - t
      // spawnSync returns when the pipes close: the child holds none of them.
      assert.equal(p.status, 0, String(p.stderr))
      assert.equal(String(p.stdout).trim(), '{}')
      assert.ok(took < sleepMs, `the agent waited ${took} ms`)
      assert.ok(!fs.existsSync(marker))
      assert.ok(waitFor(marker + '.pid', 10000), 'the detached child never ran')
      if (finishes) {
        assert.ok(waitFor(marker, 10000), 'the detached work never finished')
      } else {
        spawnSync('sleep', [String(timeout + sleepMs / 1000)])
        assert.ok(!fs.existsSync(marker), 'the work ran past the deadline')
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })
}
