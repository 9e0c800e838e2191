// The test-kit surface: every behaviour vector of fixtures/simulate (and
// fixtures/simulate/observed, when present) through predict(), the corpus,
// scenario payloads and one simulate() run.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const ah = require('../lib/index.js')
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const DIR = path.join(ROOT, 'fixtures/simulate')

function files(dir) {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(dir, f))
}

test('every behaviour vector', () => {
  let ran = 0
  const all = [...files(DIR).map((f) => [f, false]), ...files(path.join(DIR, 'observed')).map((f) => [f, true])]
  for (const [f, observed] of all) {
    const { agent, rows } = JSON.parse(fs.readFileSync(f, 'utf8'))
    for (const r of rows) {
      // observed rows: headless runs, warnings a subset (fixtures/simulate/README.md)
      const mode = observed ? 'headless' : 'interactive'
      const p = ah.predict({ agent, event: r.event, tool: r.tool, answer: r.answer, mode })
      const id = `${path.basename(f)}/${r.name}`
      assert.equal(p.effect, r.effect, id)
      const got = (p.warnings ?? []).map((w) => w.code).sort()
      if (observed) for (const w of r.warnings ?? []) assert.ok(got.includes(w), `${id}: ${w}`)
      else assert.deepEqual(got, [...(r.warnings ?? [])].sort(), id)
      for (const k of ['model_sees', 'user_sees']) {
        if (!(k in r)) continue
        if (r[k] === null) assert.equal(p[k], undefined, `${id}: ${k}`)
        else assert.ok(p[k]?.includes(r[k]), `${id}: ${k} ${p[k]}`)
      }
      ran++
    }
  }
  assert.ok(ran >= 100, `ran ${ran}`)
})

test('corpus, scenario payloads and a simulated hook', () => {
  const { fixtures } = ah.fixtureCorpus({ agent: 'gemini', kind: 'tool.pre' })
  assert.ok(fixtures.length > 3 && fixtures.every((f) => f.agent === 'gemini'))
  const { cases } = ah.scenarioPayloads({ scenarios: [{ event: 'stop' }], cwd: '/tmp' })
  assert.equal(cases.length, 8)
  const { outcomes } = ah.simulate({
    command: ['sh', '-c', 'cat >/dev/null; echo nope >&2; exit 2'],
    scenarios: [{ event: 'tool.pre', command: 'rm -rf build' }],
    agents: ['kimi-code', 'gemini'],
    cwd: '/tmp',
    timeoutMs: 10000,
  })
  assert.deepEqual(outcomes.map((o) => o.prediction.effect), ['tool_blocked', 'tool_blocked'])
  assert.throws(() => ah.predict({ agent: 'vim' }), (e) => e.code === 'invalid_argument' || e.code === 'unknown_provider')
})
