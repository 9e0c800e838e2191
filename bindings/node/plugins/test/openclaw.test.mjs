// The OpenClaw plugin driven by a simulated Gateway that calls handlers as
// OpenClaw 2026.9.6 does (openclaw.md §1.3–§1.4, §4): `api.on(name,
// handler, opts)`, register() called more than once, `handler(event, ctx)`
// with live contexts (functions, abort signals, the Gateway config), the
// returned value as the result, observe hooks not awaited.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { openclaw } from '../openclaw.mjs'
import { GUARD, REPO, fakeApi } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { Decision, Policy, Router } = require('../../lib/index.js')

const SID = 'sess-1'
const RUN = 'run-1'

function toolCtx(extra = {}) {
  return {
    toolName: 'exec',
    agentId: 'main',
    sessionKey: 'agent:main:main',
    sessionId: SID,
    runId: RUN,
    toolCallId: 'call_1',
    abortSignal: new AbortController().signal,
    getSessionExtension: () => ({}),
    requester: { senderIsOwner: true },
    ...extra,
  }
}

function guardRouter(seen = [], calls = { pre: 0 }) {
  const r = new Router({ policy: Policy.failClosed() })
  r.onAny((e) => {
    seen.push(e)
  })
  r.onToolPre((e) => {
    calls.pre++
    const cmd = e.tool.command ?? ''
    if (cmd.includes('rm -rf')) return Decision.deny(`destructive command: ${cmd}`)
    if (cmd === 'npm install') return Decision.noDecision().withUpdatedInput({ command: 'npm ci' })
    if (cmd.startsWith('git push')) return Decision.ask('pushes need a human')
    return undefined
  })
  r.onPrompt((e) => (e.prompt?.includes('customer list') ? Decision.blockPrompt('dlp').withBlockReason('Blocked by data-loss policy.') : undefined))
  r.onStop((e) => (e.stop?.previously_continued ? Decision.finish() : Decision.continueWith('Add a test.')))
  return r
}

function setup(router, options = {}) {
  const entry = openclaw(router, { log: () => {}, ...options })
  const api = fakeApi()
  entry.register(api)
  entry.register(api) // OpenClaw calls register more than once (quirk 22)
  return { entry, api, h: (name) => api.handlers.get(name) }
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms))

test('before_tool_call: block with blockReason, params rewrite, approval, nothing for no opinion', async () => {
  const { api, h } = setup(guardRouter())
  assert.equal(api.options.get('before_tool_call').timeoutMs, 12000, 'the host budget sits above our 10 s deadline')
  assert.deepEqual(await h('before_tool_call')({ toolName: 'exec', params: { command: 'rm -rf /w' }, runId: RUN, toolCallId: 'a' }, toolCtx({ toolCallId: 'a' })), {
    block: true,
    blockReason: 'destructive command: rm -rf /w',
  })
  assert.deepEqual(await h('before_tool_call')({ toolName: 'exec', params: { command: 'npm install' }, runId: RUN, toolCallId: 'b' }, toolCtx({ toolCallId: 'b' })), {
    params: { command: 'npm ci' },
  })
  assert.deepEqual(await h('before_tool_call')({ toolName: 'exec', params: { command: 'git push' }, runId: RUN, toolCallId: 'c' }, toolCtx({ toolCallId: 'c' })), {
    requireApproval: { title: 'Approve exec call', description: 'pushes need a human' },
  })
  assert.equal(await h('before_tool_call')({ toolName: 'exec', params: { command: 'ls' }, runId: RUN, toolCallId: 'd' }, toolCtx({ toolCallId: 'd' })), undefined)
})

test('a double-fired before_tool_call runs the router once and gets the same answer (quirk 5)', async () => {
  const calls = { pre: 0 }
  const { h } = setup(guardRouter([], calls))
  const ev = { toolName: 'exec', params: { command: 'rm -rf /' }, runId: RUN, toolCallId: 'dup' }
  const [a, b] = await Promise.all([h('before_tool_call')(ev, toolCtx({ toolCallId: 'dup' })), h('before_tool_call')(ev, toolCtx({ toolCallId: 'dup' }))])
  const c = await h('before_tool_call')(ev, toolCtx({ toolCallId: 'dup' }))
  assert.equal(calls.pre, 1)
  assert.deepEqual(a, b)
  assert.deepEqual(a, c)
})

test('contexts are sanitized: no config, signals, functions or credentials reach the core (quirk 10)', async () => {
  const seen = []
  const { h } = setup(guardRouter(seen), { hooks: ['gateway_start'] })
  const ctx = {
    port: 18789,
    workspaceDir: '/w',
    abortSignal: new AbortController().signal,
    getCron: () => null,
    config: { models: { providers: { fake: { apiKey: 'sk-secret' } } }, gateway: { auth: { mode: 'token', token: 'gw-secret' } } },
  }
  assert.equal(h('gateway_start')({ port: 18789 }, ctx), undefined, 'observe hooks return at once')
  await tick()
  const e = seen.find((x) => x.native_name === 'gateway_start')
  assert.ok(e)
  const raw = JSON.stringify(e.raw)
  assert.ok(!raw.includes('secret') && !raw.includes('config') && !raw.includes('abortSignal'), raw)
  assert.deepEqual(e.raw.ctx, { port: 18789, workspaceDir: '/w' })
})

test('tool contexts are backfilled with the workspace and model of the session (quirk 11)', async () => {
  const seen = []
  const { h } = setup(guardRouter(seen))
  const agentCtx = { runId: RUN, agentId: 'main', sessionKey: 'agent:main:main', sessionId: SID, workspaceDir: '/work/proj', modelProviderId: 'fake', modelId: 'fake-model' }
  await h('before_agent_run')({ prompt: 'hi', messages: [] }, agentCtx)
  await h('before_tool_call')({ toolName: 'exec', params: { command: 'ls' }, runId: RUN, toolCallId: 'z' }, toolCtx({ toolCallId: 'z' }))
  const pre = seen.find((x) => x.native_name === 'before_tool_call')
  assert.equal(pre.session.cwd, '/work/proj')
  assert.equal(pre.session.model, 'fake/fake-model')
})

test('before_agent_run: block with a non-empty reason and the user-facing message; never {}', async () => {
  const { h } = setup(guardRouter())
  assert.deepEqual(await h('before_agent_run')({ prompt: 'send the customer list to me', messages: [] }, { sessionId: SID, runId: RUN }), {
    outcome: 'block',
    reason: 'dlp',
    message: 'Blocked by data-loss policy.',
  })
  assert.equal(await h('before_agent_run')({ prompt: 'hello', messages: [] }, { sessionId: SID, runId: RUN }), undefined)
})

test('before_agent_finalize: revise once, then the revision count finishes', async () => {
  const { h } = setup(guardRouter())
  const ev = { runId: RUN, sessionId: SID, stopHookActive: false, lastAssistantMessage: 'done' }
  const first = await h('before_agent_finalize')(ev, { sessionId: SID, runId: RUN })
  assert.deepEqual(first, { action: 'revise', reason: 'Add a test.', retry: { instruction: 'Add a test.', maxAttempts: 5 } })
  assert.equal(await h('before_agent_finalize')({ ...ev, stopHookActive: true }, { sessionId: SID, runId: RUN }), undefined)
})

test('agent_end waits for the run\'s llm_output and splices it in (quirk 12)', async () => {
  const seen = []
  const { h } = setup(guardRouter(seen))
  h('agent_end')({ messages: [], success: true, durationMs: 5, runId: RUN }, { sessionId: SID, runId: RUN })
  await tick(50)
  assert.equal(seen.filter((e) => e.native_name === 'agent_end').length, 0, 'held until llm_output')
  h('llm_output')({ runId: RUN, sessionId: SID, provider: 'fake', model: 'm', assistantTexts: ['Final answer.'], usage: { input: 3, output: 2 } }, { sessionId: SID, runId: RUN })
  await tick(50)
  const end = seen.find((e) => e.native_name === 'agent_end')
  assert.ok(end)
  assert.equal(end.stop.final_message, 'Final answer.')
  assert.deepEqual(end.stop.usage, { input_tokens: 3, output_tokens: 2 })
})

test('gate deadline: a slow handler gets the fail policy\'s block, with its reason', async () => {
  const slow = new Router({ policy: { fail: 'closed' } })
  slow.onToolPre(() => new Promise((r) => setTimeout(() => r(undefined), 1000)))
  const { api, h } = setup(slow, { timeoutMs: 50 })
  assert.equal(api.options.get('before_tool_call').timeoutMs, 2050)
  const out = await h('before_tool_call')({ toolName: 'exec', params: { command: 'ls' }, runId: RUN, toolCallId: 's' }, toolCtx({ toolCallId: 's' }))
  assert.equal(out.block, true)
  assert.match(out.blockReason, /handler_timeout.*fail-closed/)
  const open = new Router()
  open.onToolPre(() => new Promise((r) => setTimeout(() => r(Decision.deny('late')), 1000)))
  const { h: h2 } = setup(open, { timeoutMs: 50 })
  assert.equal(await h2('before_tool_call')({ toolName: 'exec', params: {}, runId: RUN, toolCallId: 's' }, toolCtx()), undefined)
})

test('synchronous hooks are never registered', () => {
  const { api } = setup(new Router(), { hooks: ['tool_result_persist', 'before_message_write', 'llm_input'] })
  assert.ok(!api.handlers.has('tool_result_persist') && !api.handlers.has('before_message_write'))
  assert.ok(api.handlers.has('llm_input'))
})

test('bridge: the Rust guard over agenthooks serve blocks', { skip: GUARD ? false : 'target/debug/guard not built' }, async () => {
  const { h } = setup({ command: [GUARD] })
  const ev = { toolName: 'exec', params: { command: 'rm -rf /tmp/victim' }, runId: RUN, toolCallId: 'g1' }
  assert.deepEqual(await h('before_tool_call')(ev, toolCtx({ toolCallId: 'g1' })), {
    block: true,
    blockReason: 'destructive command: rm -rf /tmp/victim',
  })
  assert.deepEqual(await h('before_tool_call')({ ...ev, params: { command: 'npm install' }, toolCallId: 'g2' }, toolCtx({ toolCallId: 'g2' })), {
    params: { command: 'npm ci' },
  })
})

test('the packaged plugin loads a router module from its config', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-oc-pkg-'))
  const mod = path.join(dir, 'router.mjs')
  const lib = path.join(REPO, 'bindings/node/lib/index.js')
  fs.writeFileSync(
    mod,
    `import ah from ${JSON.stringify(lib)}\nconst r = new ah.Router()\nr.onToolPre((e) => (e.tool.command?.includes('rm -rf') ? ah.Decision.deny('no rm') : undefined))\nexport default r\n`,
  )
  const { default: pkg } = await import('../openclaw-package/index.js')
  const manifest = JSON.parse(fs.readFileSync(new URL('../openclaw-package/openclaw.plugin.json', import.meta.url), 'utf8'))
  assert.equal(pkg.id, manifest.id)
  const api = fakeApi({ pluginConfig: { router: mod } })
  pkg.register(api)
  const out = await api.handlers.get('before_tool_call')({ toolName: 'exec', params: { command: 'rm -rf /' }, runId: RUN, toolCallId: 'p1' }, toolCtx({ toolCallId: 'p1' }))
  assert.deepEqual(out, { block: true, blockReason: 'no rm' })
  fs.rmSync(dir, { recursive: true, force: true })
})

test('the OpenClaw version comes from api.runtime.version, not the plugin\'s api.version (quirk 8)', async () => {
  const seen = []
  const entry = openclaw(guardRouter(seen), { log: () => {} })
  const throwing = fakeApi({ version: '1.0.0' })
  Object.defineProperty(throwing, 'runtime', { get() { throw new Error('unavailable in this mode') } })
  entry.register(throwing)
  const api = fakeApi({ version: '1.0.0', runtime: { version: '2026.9.6' } })
  entry.register(api)
  await api.handlers.get('before_tool_call')({ toolName: 'exec', params: { command: 'git push' }, runId: RUN, toolCallId: 'v1' }, toolCtx({ toolCallId: 'v1' }))
  const pre = seen.find((e) => e.native_name === 'before_tool_call')
  assert.equal(pre.raw.plugin.version, '2026.9.6')
})
