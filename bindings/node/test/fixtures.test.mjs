// Runs every shared fixture through the Node binding: all provider folders
// (decode + every response; error cases through failResponseForPayload)
// and the router family. Schemas: fixtures/README.md and
// fixtures/router/README.md. Loaders are strict (unknown fields fail);
// `ran + skipped == total` is asserted; AH_FIXTURE=<substring> filters.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import {
  AgentHooksError,
  Decision,
  Router,
  all,
  any,
  decode,
  detect,
  failResponse,
  failResponseForPayload,
  parseArgs,
  parseProvider,
  rawText,
  respond,
} from '../lib/index.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures')
const FILTER = process.env.AH_FIXTURE ?? null
const LANG = 'node'

function strict(obj, allowed, where) {
  assert.ok(obj !== null && typeof obj === 'object' && !Array.isArray(obj), `${where}: must be an object`)
  for (const k of Object.keys(obj)) {
    assert.ok(allowed.includes(k), `${where}: unknown field \`${k}\``)
  }
}

const CASE_FIELDS = [
  'name', 'description', 'provider', 'variant', 'event', 'argv', 'env',
  'payload', 'payload_text', 'payload_b64', 'payload_gen', 'expect', 'responses', 'skip',
]

function loadCase(file, rel) {
  const c = JSON.parse(fs.readFileSync(file, 'utf8'))
  strict(c, CASE_FIELDS, rel)
  assert.equal(c.name, rel, 'fixture name must equal its path')
  assert.equal(typeof c.description, 'string', `${rel}: description`)
  assert.ok(c.description.trim() !== '', `${rel}: description`)
  assert.equal(typeof c.provider, 'string', `${rel}: provider`)
  for (const k of ['variant', 'event']) {
    assert.ok(c[k] === undefined || typeof c[k] === 'string', `${rel}: ${k}`)
  }
  assert.ok(c.argv === undefined || (Array.isArray(c.argv) && c.argv.every((a) => typeof a === 'string')), `${rel}: argv`)
  if (c.env !== undefined) {
    strict(c.env, Object.keys(c.env), `${rel}: env`)
    assert.ok(Object.values(c.env).every((v) => typeof v === 'string'), `${rel}: env values`)
  }
  if (c.payload_gen !== undefined) {
    strict(c.payload_gen, ['kind', 'depth', 'bytes', 'base', 'field'], `${rel}: payload_gen`)
  }
  strict(c.expect, ['event', 'error'], `${rel}: expect`)
  if (c.expect.error !== undefined) strict(c.expect.error, ['code'], `${rel}: expect.error`)
  c.responses ??= []
  assert.ok(Array.isArray(c.responses), `${rel}: responses`)
  c.responses.forEach((r, i) => {
    const w = `${rel}: response ${i}`
    strict(r, ['decision', 'policy', 'error', 'wire', 'notes'], w)
    if (r.error !== undefined) strict(r.error, ['code'], `${w}: error`)
    strict(r.wire, ['stdout_json', 'stdout', 'stderr', 'exit_code'], `${w}: wire`)
    assert.equal(typeof r.wire.exit_code, 'number', `${w}: wire.exit_code`)
    if (r.wire.stderr !== undefined && typeof r.wire.stderr !== 'string') {
      strict(r.wire.stderr, ['contains'], `${w}: wire.stderr`)
    }
    r.notes ??= []
    r.notes.forEach((n, j) => strict(n, ['code', 'from', 'to'], `${w}: note ${j}`))
  })
  c.skip ??= {}
  for (const [lang, reason] of Object.entries(c.skip)) {
    assert.ok(typeof reason === 'string' && reason.trim() !== '', `${rel}: skip.${lang} needs a reason`)
  }
  return c
}

function payloadBytes(c) {
  const forms = ['payload', 'payload_text', 'payload_b64', 'payload_gen'].filter((k) => c[k] !== undefined)
  assert.equal(forms.length, 1, `${c.name}: exactly one payload form`)
  if (c.payload !== undefined) return Buffer.from(JSON.stringify(c.payload))
  if (c.payload_text !== undefined) return Buffer.from(c.payload_text, 'utf8')
  if (c.payload_b64 !== undefined) return Buffer.from(c.payload_b64, 'base64')
  const g = c.payload_gen
  switch (g.kind) {
    case 'deep':
      assert.ok(Number.isInteger(g.depth), `${c.name}: deep needs depth`)
      return Buffer.from('['.repeat(g.depth) + ']'.repeat(g.depth))
    case 'big_string':
      assert.ok(Number.isInteger(g.bytes), `${c.name}: big_string needs bytes`)
      return Buffer.from(`"${'x'.repeat(g.bytes)}"`)
    case 'big_field': {
      assert.ok(Number.isInteger(g.bytes) && g.base && typeof g.field === 'string', `${c.name}: big_field needs bytes, base, field`)
      return Buffer.from(JSON.stringify({ ...g.base, [g.field]: 'x'.repeat(g.bytes) }))
    }
    default:
      assert.fail(`${c.name}: unknown payload_gen kind ${g.kind}`)
  }
}

function parseArgsOrNull(argv) {
  try {
    return parseArgs(argv)
  } catch {
    return null
  }
}

function withoutRaw(ev) {
  const { raw: _raw, ...rest } = ev
  return rest
}

function checkWire(name, i, r, w) {
  assert.equal(r.exit_code, w.exit_code, `${name}: response ${i}: exit code (stdout ${JSON.stringify(r.stdout)}, stderr ${JSON.stringify(r.stderr)})`)
  const hasJson = w.stdout_json !== undefined
  const hasText = w.stdout !== undefined
  assert.ok(hasJson !== hasText, `${name}: response ${i}: wire needs exactly one of stdout_json / stdout`)
  if (hasJson) {
    let got
    try {
      got = JSON.parse(r.stdout)
    } catch (e) {
      assert.fail(`${name}: response ${i}: stdout is not JSON (${e.message}): ${JSON.stringify(r.stdout)}`)
    }
    assert.deepEqual(got, w.stdout_json, `${name}: response ${i}: stdout JSON`)
  } else {
    assert.equal(r.stdout, w.stdout, `${name}: response ${i}: stdout`)
  }
  if (typeof w.stderr === 'string') {
    assert.equal(r.stderr, w.stderr, `${name}: response ${i}: stderr`)
  } else if (w.stderr !== undefined) {
    assert.ok(r.stderr.includes(w.stderr.contains), `${name}: response ${i}: stderr ${JSON.stringify(r.stderr)} lacks ${JSON.stringify(w.stderr.contains)}`)
  }
}

function checkNotes(name, i, got, want) {
  const slim = got.map((n) => {
    const o = { code: n.code }
    if (n.from != null) o.from = n.from
    if (n.to != null) o.to = n.to
    return o
  })
  assert.deepEqual(slim, want, `${name}: response ${i}: notes`)
}

function runCase(c) {
  const bytes = payloadBytes(c)
  const opts = {}
  if (c.variant !== undefined) opts.variant = c.variant
  if (c.event !== undefined) opts.event = c.event
  let provider = null
  let decoded
  let error
  if (c.env !== undefined || c.argv !== undefined) {
    // Detection cases: the provider must be found from env/argv/shape
    // alone (a `--provider` in the fixture's argv is the flag), and the
    // decode records how.
    const argv = c.argv ?? []
    const flag = parseArgsOrNull(argv)?.provider ?? null
    const found = detect(bytes, { provider: flag, env: c.env ?? {}, argv })
    assert.equal(found.provider, parseProvider(c.provider), `${c.name}: detected provider`)
    opts.detection = found.detection
    if (opts.variant === undefined && found.variant !== undefined) opts.variant = found.variant
  }
  try {
    provider = parseProvider(c.provider)
    decoded = decode(provider, bytes, opts)
  } catch (e) {
    assert.ok(e instanceof AgentHooksError, `${c.name}: decode threw a non-AgentHooksError: ${e}`)
    error = e
  }
  if (c.expect.event !== undefined && c.expect.error === undefined) {
    assert.ok(decoded, `${c.name}: expected an event, got error ${error?.code} (${error?.message})`)
    assert.deepEqual(withoutRaw(decoded), c.expect.event, `${c.name}: canonical event\n got: ${JSON.stringify(withoutRaw(decoded))}`)
    assert.ok(Buffer.from(rawText(decoded)).equals(bytes), `${c.name}: raw must be byte-identical`)
    assert.deepEqual(decoded.raw, JSON.parse(bytes.toString('utf8')), `${c.name}: raw (parsed)`)
  } else if (c.expect.error !== undefined && c.expect.event === undefined) {
    assert.ok(error, `${c.name}: expected error ${c.expect.error.code}, decoded fine`)
    assert.equal(error.code, c.expect.error.code, `${c.name}: error code (${error.message})`)
  } else {
    assert.fail(`${c.name}: expect needs exactly one of event / error`)
  }
  c.responses.forEach((rc, i) => {
    const policy = rc.policy ?? null
    let resp
    if (error) {
      assert.ok(provider, `${c.name}: responses need a known provider`)
      assert.equal(rc.error, undefined, `${c.name}: response ${i}: \`error\` is implied on error cases`)
      resp = failResponseForPayload(provider, bytes, error, policy)
    } else {
      const decision = rc.decision ?? Decision.noDecision()
      let err
      try {
        resp = respond(decoded, decision, policy)
      } catch (e) {
        assert.ok(e instanceof AgentHooksError, `${c.name}: response ${i}: respond threw ${e}`)
        err = e
      }
      if (rc.error) {
        assert.ok(err, `${c.name}: response ${i}: expected error ${rc.error.code}, got ${JSON.stringify(resp)}`)
        assert.equal(err.code, rc.error.code, `${c.name}: response ${i}: error code`)
        resp = failResponse(decoded.provider, decoded, err, policy)
      } else {
        assert.ok(!err, `${c.name}: response ${i}: unexpected error ${err?.code} (${err?.message})`)
      }
    }
    checkWire(c.name, i, resp, rc.wire)
    checkNotes(c.name, i, resp.notes, rc.notes)
  })
}

function providerDirs() {
  return fs
    .readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((n) => {
      try {
        parseProvider(n)
        return true
      } catch {
        return false
      }
    })
    .sort()
}

function jsonFiles(dir) {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
}

test('provider fixtures', () => {
  let total = 0
  let ran = 0
  let skipped = 0
  const names = new Set()
  const failures = []
  const dirs = providerDirs()
  assert.ok(dirs.length >= 2, `provider folders found: ${dirs}`)
  for (const dir of dirs) {
    for (const f of jsonFiles(path.join(ROOT, dir))) {
      const rel = `${dir}/${f.slice(0, -'.json'.length)}`
      const c = loadCase(path.join(ROOT, dir, f), rel)
      assert.ok(!names.has(c.name), `duplicate fixture name ${c.name}`)
      names.add(c.name)
      if (FILTER && !c.name.includes(FILTER)) continue
      total += 1
      if (c.skip[LANG] !== undefined) {
        skipped += 1
        continue
      }
      try {
        runCase(c)
      } catch (e) {
        failures.push(e)
      }
      ran += 1
    }
  }
  console.log(`node fixtures: ran ${ran}, skipped ${skipped}, total ${total} (${failures.length} failed)`)
  if (failures.length) {
    for (const e of failures.slice(0, 20)) console.error(String(e.message).slice(0, 2000))
    assert.fail(`${failures.length} provider fixture(s) failed`)
  }
  assert.equal(ran + skipped, total)
  assert.ok(total > 0, 'no fixtures matched')
})

function loadRouterCase(file, rel) {
  const c = JSON.parse(fs.readFileSync(file, 'utf8'))
  strict(c, ['name', 'description', 'mode', 'handlers', 'expect', 'called'], rel)
  assert.equal(c.name, rel)
  assert.ok(typeof c.description === 'string' && c.description !== '', `${rel}: description`)
  assert.ok(Array.isArray(c.handlers), `${rel}: handlers`)
  c.handlers.forEach((h, i) => strict(h, ['decision', 'error'], `${rel}: handler ${i}`))
  strict(c.expect, ['decision', 'error'], `${rel}: expect`)
  if (c.expect.error) strict(c.expect.error, ['code'], `${rel}: expect.error`)
  assert.ok(Number.isInteger(c.called), `${rel}: called`)
  return c
}

// Each handler of a case, sync or async (both must behave the same).
function handlersOf(c, counter, asyncMode) {
  return c.handlers.map((h) => {
    const has = [h.decision !== undefined, h.error !== undefined]
    assert.ok(has[0] !== has[1], `${c.name}: handler needs decision or error`)
    return (_e) => {
      counter.n += 1
      const out = () => {
        if (h.error !== undefined) throw new Error(h.error)
        return h.decision
      }
      return asyncMode ? Promise.resolve().then(out) : out()
    }
  })
}

const PRE = decode('claude-code', { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' })

async function checkRouterCase(c, combined, counter, how) {
  let got
  let err
  try {
    got = await combined(PRE)
  } catch (e) {
    err = e
  }
  if (c.expect.decision !== undefined) {
    assert.ok(!err, `${c.name} (${how}): unexpected error ${err?.code} ${err?.message}`)
    assert.deepEqual({ ...got }, { ...Decision.from(c.expect.decision) }, `${c.name} (${how})`)
  } else {
    assert.ok(err instanceof AgentHooksError, `${c.name} (${how}): expected error ${c.expect.error.code}, got ${JSON.stringify(got)}`)
    assert.equal(err.code, c.expect.error.code, `${c.name} (${how})`)
  }
  assert.equal(counter.n, c.called, `${c.name} (${how}): handlers called`)
}

test('router fixtures', async () => {
  const dir = path.join(ROOT, 'router')
  let total = 0
  let ran = 0
  for (const f of jsonFiles(dir)) {
    const c = loadRouterCase(path.join(dir, f), `router/${f.slice(0, -5)}`)
    if (FILTER && !c.name.includes(FILTER)) continue
    total += 1
    for (const asyncMode of [false, true]) {
      const how = asyncMode ? 'async' : 'sync'
      // The combinators.
      let counter = { n: 0 }
      const hs = handlersOf(c, counter, asyncMode)
      let combined
      if (c.mode === 'stack') combined = any(...hs)
      else if (c.mode === 'all') combined = all(...hs)
      else assert.fail(`${c.name}: unknown mode ${c.mode}`)
      // any/all surface a handler's raw exception; the router maps it to
      // handler_error, as the fixtures expect: run both through a router.
      const viaRouter = new Router().onToolPre(combined)
      await checkRouterCase(c, (e) => viaRouter.decide(e), counter, `${how} ${c.mode}`)
      // Stacking by registration is the same rule as `any`.
      if (c.mode === 'stack') {
        counter = { n: 0 }
        const r = new Router()
        for (const h of handlersOf(c, counter, asyncMode)) r.onToolPre(h)
        await checkRouterCase(c, (e) => r.decide(e), counter, `${how} registration`)
      }
    }
    ran += 1
  }
  console.log(`node router fixtures: ran ${ran}, total ${total}`)
  assert.equal(ran, total)
  assert.ok(total > 0 || FILTER, 'no router fixtures')
})
