// The shared serve vectors (fixtures/serve/*.json, schema in its README):
// NDJSON frames in, reply frames out, through the Node serve loop (`serve`,
// the driver `main` runs for `agenthooks serve`) over the core's bridge.
// The Rust, Python and Go loops run the same files.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { AgentHooksError, Decision, Router, parseArgs, serve, version } from 'agenthooks'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const DIR = path.resolve(HERE, '../../../fixtures/serve')
const FIELDS = new Set(['name', 'description', 'provider', 'args', 'input', 'output', 'in_order'])
const STATE = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-node-serve-'))

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// The vector router of fixtures/serve/README.md (handlers that wait do so
// as promises: the Node way of not blocking the loop).
function vectorRouter() {
  const r = new Router()
  r.onToolPre(async (e) => {
    const cmd = e.tool.command ?? ''
    if (cmd.includes('rm -rf')) return Decision.deny('destructive command')
    if (cmd === 'fail') throw new AgentHooksError('handler_error', 'boom')
    if (cmd === 'slow') await sleep(3000)
    const m = /^sleep (\d+)$/.exec(cmd)
    if (m) await sleep(Number(m[1]))
    return Decision.noDecision()
  })
  return r
}

function lineOf(entry) {
  if (typeof entry === 'string') return Buffer.from(entry)
  if ('$b64' in entry) return Buffer.from(entry.$b64, 'base64')
  if ('$gen' in entry) {
    const g = entry.$gen
    return Buffer.from(g.prefix + g.fill.repeat(g.repeat) + g.suffix)
  }
  return Buffer.from(JSON.stringify(entry))
}

// Keys sorted, "$VERSION" expanded.
function canon(v) {
  if (v === '$VERSION') return JSON.stringify(version)
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`
  }
  return JSON.stringify(v)
}

const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()

test('serve vectors (in-process serve)', async () => {
  assert.ok(files.length >= 8, 'too few serve vectors')
  let ran = 0
  for (const [i, f] of files.entries()) {
    const v = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'))
    for (const k of Object.keys(v)) assert.ok(FIELDS.has(k), `${f}: unknown field ${k}`)
    assert.equal(v.name, `serve/${f.replace(/\.json$/, '')}`)
    assert.ok(v.description.trim())
    const input = Buffer.concat(v.input.flatMap((e) => [lineOf(e), Buffer.from('\n')]))
    const argv = ['node', 'hook.js', 'agenthooks', 'serve', `--provider=${v.provider}`, ...(v.args ?? [])]
    const args = { ...parseArgs(argv), stateDir: path.join(STATE, String(i)) }
    const got = await serve(vectorRouter(), argv, input, args)
    assert.equal(got.exit_code, 0, `${v.name}: ${got.stderr}`)
    assert.ok(got.stdout === '' || got.stdout.endsWith('\n'))
    const frames = got.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))
    assert.deepEqual(frames.map(canon).sort(), v.output.map(canon).sort(), v.name)
    if (v.output.length && 'hello' in v.output[0]) assert.equal(canon(frames[0]), canon(v.output[0]), `${v.name}: hello first`)
    for (const order of v.in_order ?? []) {
      const pos = order.map((s) => frames.findIndex((g) => canon(g.seq) === canon(s)))
      assert.deepEqual(pos, [...pos].sort((a, b) => a - b), `${v.name}: ${JSON.stringify(order)} out of order`)
    }
    ran++
  }
  console.log(`node serve vectors: ran ${ran} of ${files.length}`)
  assert.equal(ran, files.length)
})

test('serve as a process (main)', () => {
  const hook = path.join(STATE, 'hook.cjs')
  fs.writeFileSync(
    hook,
    `const ah = require(${JSON.stringify(path.resolve(HERE, '..'))})
const r = new ah.Router()
r.onToolPre((e) => { console.log('stray'); return e.tool.command.includes('rm -rf') ? ah.Decision.deny('no') : undefined })
ah.main(r)
`,
  )
  const frame = (seq, cmd) =>
    JSON.stringify({ seq, hook: 'tool.execute.before', input: { tool: 'bash', sessionID: 's', callID: `c${seq}` }, output: { args: { command: cmd } } })
  const input = [JSON.stringify({ hello: { provider: 'opencode' } }), frame(1, 'rm -rf /'), frame(2, 'ls'), 'not json'].join('\n') + '\n'
  const p = spawnSync(process.execPath, [hook, 'agenthooks', 'serve', '--provider=opencode'], { input, encoding: 'utf8' })
  assert.equal(p.status, 0, p.stderr)
  const frames = p.stdout.trim().split('\n').map((l) => JSON.parse(l))
  assert.equal(frames.length, 4, p.stdout)
  assert.equal(frames[0].hello.provider, 'opencode')
  assert.deepEqual(frames.find((f) => f.seq === 1).output, { throw: 'no' })
  assert.equal(frames.find((f) => f.seq === 2).output, null)
  assert.equal(frames.find((f) => f.seq === null).error.code, 'invalid_json')
  assert.ok(p.stderr.includes('stray'), 'handler prints go to stderr')
})
