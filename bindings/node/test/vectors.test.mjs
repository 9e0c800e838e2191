// The shared runtime vectors (fixtures/runtime/*.json, schema in its
// README): argv + stdin through the whole run entry with the vector guard,
// in-process (run) and as a process (main). The Rust, C, Go and Python
// runners run the same files and must answer identically.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Decision, Router, run } from 'agenthooks'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const DIR = path.resolve(HERE, '../../../fixtures/runtime')
const KEYS = new Set(['name', 'description', 'argv', 'router', 'stdin', 'stdin_text', 'stdin_b64', 'stdin_parts', 'expect'])
const EXPECT_KEYS = new Set(['stdout', 'stdout_json', 'stderr_contains', 'exit_code'])
const STATE = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-node-vectors-'))

function load(file) {
  const c = JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8'))
  for (const k of Object.keys(c)) assert.ok(KEYS.has(k), `${file}: unknown field ${k}`)
  for (const k of Object.keys(c.expect)) assert.ok(EXPECT_KEYS.has(k), `${file}: unknown expect field ${k}`)
  assert.equal(c.name, `runtime/${file.replace(/\.json$/, '')}`)
  assert.ok(c.description.trim())
  assert.ok(('stdout' in c.expect) !== ('stdout_json' in c.expect), `${c.name}: one of stdout / stdout_json`)
  return c
}

function stdinOf(c) {
  const forms = ['stdin', 'stdin_text', 'stdin_b64', 'stdin_parts'].filter((k) => k in c)
  assert.ok(forms.length <= 1, `${c.name}: at most one stdin form`)
  if ('stdin' in c) return Buffer.from(JSON.stringify(c.stdin))
  if ('stdin_text' in c) return Buffer.from(c.stdin_text)
  if ('stdin_b64' in c) return Buffer.from(c.stdin_b64, 'base64')
  const parts = (c.stdin_parts ?? []).map((p) => {
    if (typeof p === 'string') return Buffer.from(p)
    assert.deepEqual(Object.keys(p).sort(), ['repeat', 'times'])
    return Buffer.from(p.repeat.repeat(p.times))
  })
  return Buffer.concat(parts)
}

function routerOf(c) {
  const router = new Router({ policy: c.router ?? {} })
  router.onToolPre((e) => {
    if (e.tool.command.includes('rm -rf')) return Decision.deny('vector guard: rm -rf is not allowed')
    if (e.tool.command.includes('needs-approval')) return Decision.ask('vector guard: needs approval')
    return undefined
  })
  return router
}

function check(c, stdout, stderr, code, how) {
  const where = `${c.name} (${how}): stderr ${JSON.stringify(stderr)}`
  assert.equal(code, c.expect.exit_code, where)
  if ('stdout' in c.expect) assert.equal(stdout, c.expect.stdout, where)
  else assert.deepEqual(JSON.parse(stdout), c.expect.stdout_json, where)
  for (const s of c.expect.stderr_contains ?? []) assert.ok(stderr.includes(s), `${where} lacks ${JSON.stringify(s)}`)
}

const filter = process.env.AH_FIXTURE
const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()
const cases = files.map(load).filter((c) => !filter || c.name.includes(filter))

test('runtime vectors in-process (run)', async () => {
  assert.ok(files.length > 0, 'no runtime vectors')
  for (const c of cases) {
    const r = await run(routerOf(c), c.argv, stdinOf(c))
    check(c, r.stdout, r.stderr, r.exit_code, 'run')
  }
  console.log(`node runtime vectors (run): ran ${cases.length} of ${files.length}`)
  if (!filter) assert.equal(cases.length, files.length)
})

test('runtime vectors as processes (main)', () => {
  for (const c of cases) {
    const env = { ...process.env, AGENTHOOKS_STATE_DIR: STATE }
    delete env.AGENTHOOKS_NOTES
    if (c.router) env.AH_VECTOR_POLICY = JSON.stringify(c.router)
    const p = spawnSync(process.execPath, [path.join(HERE, 'hooks', 'vector.mjs'), ...c.argv.slice(1)], {
      input: stdinOf(c),
      env,
      encoding: 'utf8',
      timeout: 30000,
      maxBuffer: 64 * 1024 * 1024,
    })
    check(c, p.stdout, p.stderr, p.status, 'main')
  }
  console.log(`node runtime vectors (main): ran ${cases.length} of ${files.length}`)
})
