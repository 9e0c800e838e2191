// Runs every fixtures/router/dispatch/*.json vector (format in
// fixtures/router/README.md) through the JS Router, a driver over the
// core's dispatch table. `async` entries are async functions here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

import { AgentHooksError, Decision, Router, canonical, decode, when } from '../lib/index.mjs'

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/router/dispatch')
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()

const dec = (v) => Decision.from(JSON.stringify(v))
const later = () => new Promise((res) => setImmediate(res))

function body(e, calls) {
  const does = e.does
  if (e.role === 'observer') {
    return () => {
      calls.push(e.id)
      if (does.error !== undefined) throw new Error(does.error)
    }
  }
  if (e.role === 'handler') {
    return () => {
      calls.push(e.id)
      if (does.error !== undefined) throw new Error(does.error)
      return does.decision === undefined ? undefined : dec(does.decision)
    }
  }
  return async (ev, next) => {
    calls.push(e.id)
    let inner
    let err
    for (let i = 0; i < (does.next ?? 0); i++) {
      try {
        const d = await next(ev)
        if (inner === undefined) inner = d
      } catch (x) {
        err = x
      }
    }
    if (does.error !== undefined) throw new Error(does.error)
    if (does.return === 'inner') {
      if (inner === undefined && err !== undefined) throw err
      return inner
    }
    return does.return === undefined || does.return === null ? undefined : dec(does.return)
  }
}

function callable(e, calls) {
  const f = body(e, calls)
  if (!e.async) return f
  // Entered now (the order is the dispatch's), answered later.
  return async (...args) => {
    const r = f(...args)
    await later()
    return r
  }
}

test('every dispatch vector is here', () => {
  assert.ok(FILES.length >= 20)
})

for (const file of FILES) {
  const c = JSON.parse(readFileSync(join(DIR, file), 'utf8'))
  test(c.name, async () => {
    assert.equal(c.name, `router/dispatch/${file.replace(/\.json$/, '')}`)
    const ev = decode(c.event.provider, c.event.payload)
    const calls = []
    const r = new Router()
    for (const e of c.entries) {
      let f = callable(e, calls)
      if (e.role === 'observer') r.onAny(f)
      else if (e.role === 'middleware') r.use(f)
      else {
        if (e.when === 'guard') f = when(() => e.guard, f)
        else if (e.when?.startsWith('canonical:')) f = when(canonical(e.when.slice('canonical:'.length)), f)
        else if (e.when !== undefined) f = when(e.when.slice('names:'.length), f)
        if (e.on.startsWith('native:')) r.onNative(e.on.slice('native:'.length), f)
        else r.on(e.on.slice('kind:'.length), f)
      }
    }
    assert.equal(r.handles(ev), c.handles)
    if (c.expect.error) {
      await assert.rejects(r.decide(ev), (x) => x instanceof AgentHooksError && x.code === c.expect.error.code)
    } else {
      const got = await r.decide(ev)
      assert.deepEqual(JSON.parse(JSON.stringify(got)), JSON.parse(JSON.stringify(dec(c.expect.decision))))
    }
    // Async observers are not awaited by decide: let them run.
    await later()
    await later()
    assert.deepEqual(calls, c.calls)
  })
}
