// The typed native views (lib/native.d.ts, generated from schemas/) against
// every provider fixture whose payload is a JSON object that decodes:
// `event.native(agent, name)` must hold each property the event's input
// schema declares exactly as the payload has it, the event's interface in
// lib/native.d.ts must declare it with a type its value conforms to (read
// from the .d.ts, nested interfaces too), and every required property must
// be there (and be non-optional in the interface). The schemas are read
// here; `tsc` checks the .d.ts itself (test/types/views.mts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { AgentHooksError, decode } from '../lib/index.mjs'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.resolve(HERE, '../../..')
const SCHEMAS = process.env.AH_SCHEMAS_DIR || path.join(ROOT, 'schemas')
const AGENTS = ['claude-code', 'codex', 'cursor', 'gemini', 'kimi-code', 'copilot', 'opencode', 'openclaw']
const NS = (a) => a.replace(/-/g, '_')

// lib/native.d.ts -> { namespace: { interface: { Input?, props: {key: {optional, type}} } } }
function readDts() {
  const text = fs.readFileSync(path.join(HERE, '../lib/native.d.ts'), 'utf8')
  const out = {}
  let ns = null
  let iface = null
  for (const line of text.split('\n')) {
    let m
    if ((m = line.match(/^export declare namespace (\w+) \{$/))) {
      ns = out[m[1]] = {}
    } else if ((m = line.match(/^ {2}interface (\w+) \{$/))) {
      iface = ns[m[1]] = {}
    } else if (iface && (m = line.match(/^ {4}("(?:[^"\\]|\\.)*"|[A-Za-z_$][\w$]*)(\?)?: (.+)$/))) {
      const key = m[1].startsWith('"') ? JSON.parse(m[1]) : m[1]
      iface[key] = { optional: m[2] === '?', type: m[3] }
    } else if (/^ {2}\}$/.test(line)) {
      iface = null
    }
  }
  return out
}

function objectPayload(c) {
  if ('payload' in c) {
    const p = c.payload
    return p !== null && typeof p === 'object' && !Array.isArray(p) ? JSON.stringify(p) : null
  }
  if ('payload_text' in c) {
    let v
    try {
      v = JSON.parse(c.payload_text)
    } catch {
      return null
    }
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? c.payload_text : null
  }
  const g = c.payload_gen
  if (g && g.kind === 'big_field') return JSON.stringify({ ...g.base, [g.field]: 'x'.repeat(g.bytes) })
  return null
}

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

function same(a, b) {
  if (Array.isArray(b)) return Array.isArray(a) && a.length === b.length && b.every((x, i) => same(a[i], x))
  if (isObj(b)) {
    if (!isObj(a)) return false
    const ka = Object.keys(a)
    const kb = Object.keys(b)
    return ka.length === kb.length && kb.every((k) => Object.hasOwn(a, k) && same(a[k], b[k]))
  }
  return Object.is(a, b) || a === b
}

// Splits `A | B` at the top level (not inside <> or {}).
function topUnion(t) {
  const parts = []
  let depth = 0
  let cur = ''
  for (let i = 0; i < t.length; i++) {
    const ch = t[i]
    if (ch === '<' || ch === '{') depth++
    if (ch === '>' || ch === '}') depth--
    if (depth === 0 && t.startsWith(' | ', i)) {
      parts.push(cur)
      cur = ''
      i += 2
      continue
    }
    cur += ch
  }
  parts.push(cur)
  return parts
}

function conforms(v, type, ns, where) {
  const alts = topUnion(type)
  if (alts.length > 1) {
    assert.ok(alts.some((t) => { try { conforms(v, t, ns, where); return true } catch { return false } }), `${where}: ${JSON.stringify(v)} is not ${type}`)
    return
  }
  if (type === 'JsonValue') return
  if (type === 'null') return assert.equal(v, null, where)
  if (type === 'string' || type === 'number' || type === 'boolean') {
    return assert.equal(typeof v, type, `${where}: ${JSON.stringify(v)} is not ${type}`)
  }
  if (type === '{ [key: string]: JsonValue }') return assert.ok(isObj(v), `${where}: not an object`)
  let m
  if ((m = type.match(/^Array<(.+)>$/))) {
    assert.ok(Array.isArray(v), `${where}: not an array`)
    v.forEach((x, i) => conforms(x, m[1], ns, `${where}[${i}]`))
    return
  }
  const iface = ns[type]
  assert.ok(iface, `${where}: unknown type ${type}`)
  assert.ok(isObj(v), `${where}: not an object (${type})`)
  for (const [k, p] of Object.entries(iface)) {
    if (!p.optional) assert.ok(Object.hasOwn(v, k), `${where}.${k}: required by ${type}, absent`)
    if (Object.hasOwn(v, k)) conforms(v[k], p.type, ns, `${where}.${k}`)
  }
}

test('native views: every object payload reads through its typed view', () => {
  const dts = readDts()
  const index = JSON.parse(fs.readFileSync(path.join(SCHEMAS, 'index.json'), 'utf8'))
  let checked = 0
  let eligible = 0
  const unlisted = []
  const failures = []
  for (const agent of AGENTS) {
    const dir = path.join(ROOT, 'fixtures', agent)
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
    assert.ok(files.length > 0, `no fixtures for ${agent}`)
    const ns = dts[NS(agent)]
    assert.ok(ns, `lib/native.d.ts has no namespace ${NS(agent)}`)
    for (const f of files) {
      const c = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))
      if (!c.expect.event) continue
      const text = objectPayload(c)
      if (text === null) continue
      const opts = {}
      if (c.variant !== undefined) opts.variant = c.variant
      if (c.event !== undefined) opts.event = c.event
      const ev = decode(agent, text, opts)
      const entry = index.agents[agent].events[ev.native_name]
      const got = ev.native()
      assert.equal(ev.native(), got, `${c.name}: native() parses once`)
      if (entry === undefined) {
        assert.ok(!Object.hasOwn(ns.Input, ev.native_name), c.name)
        unlisted.push(c.name)
        continue
      }
      eligible++
      try {
        assert.equal(ev.native(agent, ev.native_name), got)
        const iname = ns.Input[ev.native_name]?.type
        assert.ok(iname, `no interface for ${ev.native_name} in native.${NS(agent)}.Input`)
        const iface = ns[iname]
        const schema = JSON.parse(fs.readFileSync(path.join(SCHEMAS, entry.input), 'utf8'))
        const payload = JSON.parse(text)
        for (const k of Object.keys(schema.properties ?? {})) {
          if (!Object.hasOwn(payload, k)) continue
          assert.ok(iface[k], `${k}: declared in the schema, not in ${iname}`)
          assert.ok(same(got[k], payload[k]), `${k}: view != payload`)
          conforms(got[k], iface[k].type, ns, k)
        }
        for (const k of schema.required ?? []) {
          assert.ok(Object.hasOwn(payload, k), `required ${k} is not in the payload`)
          assert.ok(iface[k] && !iface[k].optional, `required ${k} is optional in ${iname}`)
        }
        assert.ok(same(got, payload), 'the view is not the payload')
        checked++
      } catch (e) {
        failures.push(`${c.name}: ${e.message}`)
      }
    }
  }
  assert.deepEqual(failures, [])
  console.log(`native views (node): ${checked} payloads checked (${unlisted.length} of events the schemas do not list)`)
  assert.ok(checked > 0)
  assert.equal(checked, eligible)
})

test('native views: a view of another event is invalid_argument', () => {
  const ev = decode('claude-code', '{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false}')
  assert.throws(() => ev.native('claude-code', 'PreToolUse'), (e) => e instanceof AgentHooksError && e.code === 'invalid_argument')
  assert.throws(() => ev.native('codex', 'Stop'), (e) => e instanceof AgentHooksError && e.code === 'invalid_argument')
  assert.equal(ev.native('claude-code', 'Stop').session_id, 's')
  assert.ok(!Object.keys(ev).includes('native'), 'native is not enumerable')
})
