// How the plugins treat what the bridge replies (issue 21 §5): a reply with
// an `error`, or without an `output`, is never "no opinion": the fail
// policy answers it (closed: a block). A reply that cannot be tied to the
// request (seq null) leaves it to the plugin's deadline, which answers per
// the fail policy too. Driven by a fake serve program (fake-serve.mjs),
// then by every reply of the shared serve vectors (fixtures/serve/).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

import { opencode } from '../opencode.mjs'
import { openclaw } from '../openclaw.mjs'
import { REPO, fakeApi, fakeClient } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { Engine } = require('../common.js')

const FAKE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-serve.mjs')
const COMMAND = [process.execPath, FAKE]
const PRE = [{ tool: 'bash', sessionID: 'ses', callID: 'c1' }]

async function beforeTool(env, options = {}) {
  const plugin = opencode({ command: COMMAND, env, timeoutMs: 2000, log: () => {}, ...options })
  const hooks = await plugin({ client: fakeClient(), directory: '/repo' })
  const output = { args: { command: 'ls' } }
  try {
    await hooks['tool.execute.before'](...PRE, output)
    return { output }
  } catch (e) {
    return { output, thrown: e.message }
  }
}

for (const mode of ['error-no-output', 'no-output', 'bad-output']) {
  test(`bridge reply (${mode}) under fail-closed: blocked, never "no opinion"`, async () => {
    const r = await beforeTool({ AH_FAKE_MODE: mode, AH_FAKE_FAIL: 'closed' })
    const code = mode === 'error-no-output' ? 'handler_error' : 'io'
    assert.equal(r.thrown, `Blocked because the hook failed (${code}); policy is fail-closed.`)
  })
  test(`bridge reply (${mode}) under fail-open: no opinion`, async () => {
    const r = await beforeTool({ AH_FAKE_MODE: mode, AH_FAKE_FAIL: 'open' })
    assert.equal(r.thrown, undefined)
    assert.deepEqual(r.output, { args: { command: 'ls' } })
  })
}

test('an error reply is answered by the plugin\'s fail policy: `fail: closed` blocks a program\'s fail-open answer', async () => {
  const r = await beforeTool({ AH_FAKE_MODE: 'error-null-output', AH_FAKE_FAIL: 'open' }, { fail: 'closed' })
  assert.match(r.thrown ?? '', /Blocked because the hook failed \(handler_error\); policy is fail-closed/)
  const ok = await beforeTool({ AH_FAKE_MODE: 'ok-null', AH_FAKE_FAIL: 'open' }, { fail: 'closed' })
  assert.equal(ok.thrown, undefined, 'output null without an error is no opinion')
})

test('an error reply carrying the program\'s block keeps its reason when the postures agree', async () => {
  const r = await beforeTool({ AH_FAKE_MODE: 'error-block-output', AH_FAKE_FAIL: 'closed' })
  assert.equal(r.thrown, 'the program says no (its own reason)')
  // The plugin's own `fail: open` overrides the program's closed answer.
  const open = await beforeTool({ AH_FAKE_MODE: 'error-block-output', AH_FAKE_FAIL: 'closed' }, { fail: 'open' })
  assert.equal(open.thrown, undefined)
})

test('a reply with seq null is not taken for the request; the deadline answers it per the fail policy', async () => {
  const t0 = Date.now()
  const r = await beforeTool({ AH_FAKE_MODE: 'seq-null', AH_FAKE_FAIL: 'closed' }, { timeoutMs: 200 })
  assert.match(r.thrown ?? '', /\(handler_timeout\); policy is fail-closed/)
  assert.ok(Date.now() - t0 < 3000)
})

test('a reply line over the limit is dropped, and the next one is read', async () => {
  const r = await beforeTool({ AH_FAKE_MODE: 'huge' }, { timeoutMs: 10000 })
  assert.equal(r.thrown, 'after the huge line')
})

test('OpenClaw: an error reply without output blocks before_tool_call under fail-closed', async () => {
  const api = fakeApi()
  const hello = { hello: { provider: 'openclaw', version: '0', policy: { fail: 'closed' }, deadline_ms: 1000 } }
  openclaw({ command: COMMAND, env: { AH_FAKE_MODE: 'error-no-output', AH_FAKE_HELLO: JSON.stringify(hello) }, timeoutMs: 2000, log: () => {} }).register(api)
  const out = await api.handlers.get('before_tool_call')(
    { toolName: 'exec', params: { command: 'ls' }, toolCallId: 'tc1' },
    { sessionId: 's1', toolCallId: 'tc1' },
  )
  const reason = 'Blocked because the hook failed (handler_error); policy is fail-closed.'
  assert.deepEqual(out, { block: true, blockReason: reason })
})

// Every request of every serve vector, its reply replayed to the plugin's
// engine: the engine's answer is the reply's output, or, for a reply with
// an error, the fail policy's answer (what the engine computes itself).
test('serve vectors: the engine applies every reply form the servers produce', async () => {
  const dir = path.join(REPO, 'fixtures/serve')
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
  assert.ok(files.length >= 8, 'too few serve vectors')
  let ran = 0
  let requests = 0
  for (const f of files) {
    const v = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))
    const frames = v.input.filter((l) => l && typeof l === 'object' && !('$b64' in l) && !('$gen' in l) && !('hello' in l) && ['number', 'string'].includes(typeof l.seq))
    const replies = frames.map((fr) => {
      const rep = v.output.find((o) => JSON.stringify(o.seq) === JSON.stringify(fr.seq))
      assert.ok(rep, `${v.name}: no reply for seq ${JSON.stringify(fr.seq)}`)
      return rep
    })
    const hello = v.output.find((o) => o.hello) ?? {
      hello: { provider: v.provider, version: '0', policy: { fail: (v.args ?? []).includes('--fail=closed') ? 'closed' : 'open' }, deadline_ms: 1000 },
    }
    const log = []
    const engine = new Engine({
      provider: v.provider,
      command: COMMAND,
      env: { AH_FAKE_MODE: 'replay', AH_FAKE_HELLO: JSON.stringify(hello), AH_FAKE_REPLIES: JSON.stringify(replies) },
      timeoutMs: 5000,
      log: (l) => log.push(l),
    })
    try {
      for (let i = 0; i < frames.length; i++) {
        const { seq: _seq, ...frame } = frames[i]
        const got = await engine.dispatch(frame)
        const reply = replies[i]
        let want
        if (reply.error) {
          want = engine.failAnswer(frame, { code: reply.error.code, message: reply.error.message }).stdout
          // The plugin's own fail answer agrees with the program's output.
          assert.deepEqual(want === '' ? null : JSON.parse(want), reply.output, `${v.name} seq ${frames[i].seq}: fail answers differ`)
        } else {
          want = reply.output === null ? '' : JSON.stringify(reply.output)
        }
        assert.equal(got.stdout, want, `${v.name} seq ${frames[i].seq}: ${log.join('\n')}`)
        requests++
      }
    } finally {
      engine.close()
    }
    ran++
  }
  assert.equal(ran, files.length)
  assert.ok(requests >= 20, `only ${requests} requests replayed`)
})
