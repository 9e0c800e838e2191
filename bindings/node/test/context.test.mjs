// fixtures/mcp/ and fixtures/transcript/ through the Node binding.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const ah = require('../lib/index.js')
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures')
const FILTER = process.env.AH_FIXTURE || ''

const mcpCases = fs
  .readdirSync(path.join(ROOT, 'mcp'))
  .filter((d) => fs.existsSync(path.join(ROOT, 'mcp', d, 'case.json')))
  .sort()
const transcriptCases = fs
  .readdirSync(path.join(ROOT, 'transcript'))
  .filter((f) => f.endsWith('.json'))
  .sort()

test('mcp fixtures', () => {
  assert.ok(mcpCases.length >= 20)
  let ran = 0
  let skipped = 0
  for (const d of mcpCases) {
    const dir = fs.realpathSync(path.join(ROOT, 'mcp', d))
    const c = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8').replaceAll('{root}', dir))
    assert.deepEqual(Object.keys(c).filter((k) => !['name', 'description', 'request', 'expect'].includes(k)), [])
    assert.equal(c.name, `mcp/${d}`)
    if (FILTER && !c.name.includes(FILTER)) {
      skipped++
      continue
    }
    if (c.expect.error) {
      assert.throws(() => ah.resolveMcpTransport(c.request), (e) => e.code === c.expect.error.code, c.name)
    } else {
      assert.deepEqual(ah.resolveMcpTransport(c.request), c.expect.transport, c.name)
    }
    ran++
  }
  assert.equal(ran + skipped, mcpCases.length)
})

test('transcript fixtures', async () => {
  assert.ok(transcriptCases.length >= 4)
  let ran = 0
  let skipped = 0
  for (const f of transcriptCases) {
    const c = JSON.parse(fs.readFileSync(path.join(ROOT, 'transcript', f), 'utf8'))
    assert.equal(c.name, `transcript/${f.replace(/\.json$/, '')}`)
    if (FILTER && !c.name.includes(FILTER)) {
      skipped++
      continue
    }
    const got = []
    for await (const e of ah.readTranscript(path.join(ROOT, 'transcript', c.file), {
      format: c.format ?? 'auto',
      maxLineBytes: c.max_line_bytes,
      pageSize: c.page_size ?? 256,
    })) {
      got.push(e)
    }
    assert.deepEqual(got, c.expect, c.name)
    ran++
  }
  assert.equal(ran + skipped, transcriptCases.length)
})

test('transcript errors throw', async () => {
  await assert.rejects(async () => {
    for await (const _ of ah.readTranscript('/nonexistent/agenthooks/t.jsonl')) void _
  }, (e) => e.code === 'io')
})

test('mcpTransport(event) reads the agent config lazily', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-node-mcp-'))
  const home = path.join(tmp, 'home')
  fs.mkdirSync(home)
  fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify({ mcpServers: { tickets: { command: 'tix', env: { T: 's3cret' } } } }))
  const saved = { HOME: process.env.HOME, AGENTHOOKS_STATE_DIR: process.env.AGENTHOOKS_STATE_DIR }
  process.env.HOME = home
  process.env.AGENTHOOKS_STATE_DIR = path.join(tmp, 'state')
  try {
    const payload = { session_id: 's1', hook_event_name: 'PreToolUse', cwd: tmp, tool_name: 'mcp__tickets__create', tool_input: {}, tool_use_id: 't1' }
    const ev = ah.decode('claude-code', JSON.stringify(payload))
    assert.deepEqual(ah.mcpTransport(ev), {
      server: 'tickets', transport: 'stdio', command: 'tix', from_config: true,
      config_path: path.join(home, '.claude.json'), scope: 'user',
    })
    assert.equal(ah.mcpTransport(ah.decode('claude-code', JSON.stringify({ ...payload, tool_name: 'Bash' }))), null)
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
    fs.rmSync(tmp, { recursive: true, force: true })
  }
})
