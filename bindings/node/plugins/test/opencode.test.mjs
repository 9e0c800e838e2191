// The OpenCode plugin driven by a simulated host that calls the hooks as
// OpenCode 1.18.33 does (opencode.md §1.3, §4): named hooks awaited in
// turn with one mutable `output`, a throw propagating into the operation,
// bus events through `event`, the SDK client for replies and prompts.
// In-process (a router here) and bridged (the Rust example guard over
// `agenthooks serve`).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'

import { opencode } from '../opencode.mjs'
import { GUARD, fakeClient } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { Decision, Policy, Router } = require('../../lib/index.js')

const SES = 'ses_main'

function guardRouter(seen = []) {
  const r = new Router({ policy: Policy.failClosed() })
  r.onAny((e) => {
    seen.push(e)
  })
  r.onToolPre((e) => {
    const cmd = e.tool.command ?? ''
    if (cmd.includes('rm -rf')) return Decision.deny(`destructive command: ${cmd}`)
    if (cmd.trim() === 'npm install') return Decision.noDecision().withUpdatedInput({ command: 'npm ci' })
    return undefined
  })
  r.onToolPost((e) => (e.output?.output?.includes('SECRET') ? Decision.replaceOutput('[redacted]') : undefined))
  r.onPrompt((e) => {
    if (e.prompt?.includes('forbidden')) return Decision.blockPrompt('not that')
    return Decision.acceptPrompt().withContext('Project rule: run the tests.')
  })
  r.onPermissionRequest((e) => (e.tool.command?.startsWith('git push') ? Decision.deny('Open a pull request instead.') : Decision.allow()))
  r.onStop((e) => (e.stop?.previously_continued ? Decision.finish() : Decision.continueWith('Run the tests.')))
  return r
}

async function host(plugin, client = fakeClient()) {
  const hooks = await plugin({ client, directory: '/repo', worktree: '/repo' })
  return { hooks, client }
}

test('tool.execute.before: a throw blocks with the exact reason; args are rewritten in place', async () => {
  const { hooks } = await host(opencode(guardRouter(), { log: () => {} }))
  const out = { args: { command: 'rm -rf /repo/victim' } }
  await assert.rejects(hooks['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 'c1' }, out), {
    message: 'destructive command: rm -rf /repo/victim',
  })
  // In place: OpenCode keeps its own reference to output.args (quirk 4).
  const args = { command: 'npm install', description: 'deps' }
  const out2 = { args }
  await hooks['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 'c2' }, out2)
  assert.equal(out2.args, args, 'the same object')
  assert.deepEqual(args, { command: 'npm ci' }, 'keys not in the rewrite are deleted')
  const out3 = { args: { command: 'ls' } }
  await hooks['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 'c3' }, out3)
  assert.deepEqual(out3, { args: { command: 'ls' } }, 'no opinion changes nothing')
})

test('tool.execute.after: replacement reaches output.output and metadata.output', async () => {
  const { hooks } = await host(opencode(guardRouter(), { log: () => {} }))
  const out = { title: 'cat .env', output: 'SECRET=1\n', metadata: { output: 'SECRET=1\n', exit: 0 } }
  await hooks['tool.execute.after']({ tool: 'bash', sessionID: SES, callID: 'c1', args: { command: 'cat .env' } }, out)
  assert.equal(out.output, '[redacted]')
  assert.equal(out.metadata.output, '[redacted]')
  assert.equal(out.metadata.exit, 0)
})

test('chat.message: block throws; context is a synthetic part with the ids OpenCode gives its own parts', async () => {
  const { hooks } = await host(opencode(guardRouter(), { log: () => {} }))
  const msg = { id: 'msg_1', sessionID: SES, role: 'user' }
  const blocked = { message: msg, parts: [{ id: 'prt_1', type: 'text', text: 'do the forbidden thing' }] }
  await assert.rejects(hooks['chat.message']({ sessionID: SES }, blocked), { message: 'not that' })
  const ok = { message: msg, parts: [{ id: 'prt_1', sessionID: SES, messageID: 'msg_1', type: 'text', text: 'bump' }] }
  await hooks['chat.message']({ sessionID: SES, model: { providerID: 'fake', modelID: 'm' } }, ok)
  assert.equal(ok.parts.length, 2)
  const p = ok.parts[1]
  assert.equal(p.type, 'text')
  assert.equal(p.text, 'Project rule: run the tests.')
  assert.equal(p.synthetic, true)
  assert.equal(p.sessionID, SES)
  assert.equal(p.messageID, 'msg_1')
  assert.match(p.id, /^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$/)
})

test('chat.params: credentials never reach the core (quirk 10)', async () => {
  const seen = []
  const { hooks } = await host(opencode(guardRouter(seen), { log: () => {} }))
  await hooks['chat.params'](
    {
      sessionID: SES,
      agent: 'title',
      model: { id: 'm', providerID: 'fake' },
      provider: { id: 'fake', options: { apiKey: 'sk-live-123', baseURL: 'http://x', headers: { Authorization: 'Bearer t' } } },
      message: {},
    },
    { maxOutputTokens: 10, options: {} },
  )
  const e = seen.find((x) => x.native_name === 'chat.params')
  assert.ok(e)
  assert.equal(e.source, 'title')
  const raw = JSON.stringify(e.raw)
  assert.ok(!raw.includes('sk-live-123') && !raw.includes('Bearer t'), raw)
  assert.ok(raw.includes('http://x'))
})

test('permission.asked: the reply goes through the client; ask leaves it to the human', async () => {
  const client = fakeClient()
  const { hooks } = await host(opencode(guardRouter(), { log: () => {} }), client)
  await hooks.event({
    event: {
      id: 'evt_1',
      type: 'permission.asked',
      properties: { id: 'per_1', sessionID: SES, permission: 'bash', patterns: ['git push'], metadata: { command: 'git push origin main' }, always: [], tool: { messageID: 'm', callID: 'c9' } },
    },
  })
  await hooks.event({
    event: { type: 'permission.asked', properties: { id: 'per_2', sessionID: SES, permission: 'bash', metadata: { command: 'ls' } } },
  })
  assert.deepEqual(client.calls.replies, [
    { requestID: 'per_1', body: { reply: 'reject', message: 'Open a pull request instead.' } },
    { requestID: 'per_2', body: { reply: 'once' } },
  ])
})

test('permission reply falls back to the deprecated route', async () => {
  const client = fakeClient({ newRoute: false })
  const { hooks } = await host(opencode(guardRouter(), { log: () => {} }), client)
  await hooks.event({ event: { type: 'permission.asked', properties: { id: 'per_3', sessionID: SES, permission: 'bash', metadata: { command: 'ls' } } } })
  assert.deepEqual(client.calls.deprecated, [{ path: { id: SES, permissionID: 'per_3' }, body: { response: 'once' } }])
})

test('session.idle: final text from the SDK, continue sends one prompt, then the loop count caps it', async () => {
  const seen = []
  const client = fakeClient({ lastText: 'All done.' })
  const { hooks } = await host(opencode(guardRouter(seen), { log: () => {} }), client)
  await hooks.event({ event: { type: 'session.idle', properties: { sessionID: SES } } })
  assert.equal(client.calls.prompts.length, 1)
  assert.deepEqual(client.calls.prompts[0], { path: { id: SES }, body: { parts: [{ type: 'text', text: 'Run the tests.' }] } })
  const stop = seen.find((e) => e.native_name === 'session.idle')
  assert.equal(stop.stop.final_message, 'All done.')
  // Our own prompt comes back through chat.message: the count stays.
  await hooks['chat.message']({ sessionID: SES }, { message: { id: 'm2', sessionID: SES }, parts: [{ type: 'text', text: 'Run the tests.' }] })
  await hooks.event({ event: { type: 'session.idle', properties: { sessionID: SES } } })
  assert.equal(client.calls.prompts.length, 1, 'previously continued: the router finishes')
  const second = seen.filter((e) => e.native_name === 'session.idle')[1]
  assert.equal(second.stop.previously_continued, true)
  assert.equal(second.stop.loop_count, 1)
})

test('bus events: child sessions become subagents; streaming parts are not forwarded; tool errors once', async () => {
  const seen = []
  const { hooks } = await host(opencode(guardRouter(seen), { log: () => {} }))
  await hooks.event({ event: { type: 'session.created', properties: { sessionID: 'ses_kid', info: { id: 'ses_kid', parentID: SES, directory: '/repo' } } } })
  await hooks['tool.execute.before']({ tool: 'grep', sessionID: 'ses_kid', callID: 'k1' }, { args: { pattern: 'x' } })
  await hooks.event({ event: { type: 'message.part.delta', properties: { sessionID: SES, delta: 'a' } } })
  await hooks.event({ event: { type: 'message.part.updated', properties: { sessionID: SES, part: { type: 'text', text: 'a' } } } })
  const errPart = { type: 'tool', sessionID: SES, callID: 'e1', tool: 'read', state: { status: 'error', input: { filePath: 'x' }, error: 'boom' } }
  await hooks.event({ event: { type: 'message.part.updated', properties: { sessionID: SES, part: errPart } } })
  await hooks.event({ event: { type: 'message.part.updated', properties: { sessionID: SES, part: errPart } } })
  const kinds = seen.map((e) => `${e.native_name}:${e.kind}`)
  assert.deepEqual(kinds, ['session.created:subagent.start', 'tool.execute.before:tool.pre', 'message.part.updated:tool.error'])
  assert.equal(seen[1].session.id, SES)
  assert.deepEqual(seen[1].agent, { id: 'ses_kid' })
  assert.equal(seen[2].error, 'boom')
})

test('MCP tools are attributed from the config the client reports', async () => {
  const seen = []
  const client = fakeClient({ mcp: { github: { type: 'remote', url: 'https://gh/mcp', headers: { Authorization: 'Bearer x' }, enabled: true } } })
  const { hooks } = await host(opencode(guardRouter(seen), { log: () => {} }), client)
  await hooks['tool.execute.before']({ tool: 'github_create_issue', sessionID: SES, callID: 'm1' }, { args: { title: 't' } })
  const t = seen[0].tool
  assert.equal(t.canonical, 'mcp')
  assert.deepEqual(t.mcp, { server: 'github', tool: 'create_issue', url: 'https://gh/mcp' })
  assert.ok(!JSON.stringify(seen[0].raw).includes('Bearer x'))
})

test('plugin-owned deadline: the fail policy answers a handler that is too slow', async () => {
  const slow = new Router({ policy: { fail: 'closed' } })
  slow.onToolPre(() => new Promise((r) => setTimeout(() => r(Decision.noDecision()), 1000)))
  const { hooks } = await host(opencode(slow, { timeoutMs: 50, log: () => {} }))
  await assert.rejects(hooks['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 't' }, { args: { command: 'ls' } }), {
    message: /handler_timeout.*fail-closed/,
  })
  const open = new Router()
  open.onToolPre(() => new Promise((r) => setTimeout(() => r(Decision.deny('late')), 1000)))
  const lines = []
  const { hooks: h2 } = await host(opencode(open, { timeoutMs: 50, log: (l) => lines.push(l) }))
  const out = { args: { command: 'ls' } }
  await h2['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 't' }, out)
  assert.deepEqual(out, { args: { command: 'ls' } })
  assert.ok(lines.some((l) => l.includes('handler_timeout')), lines.join('\n'))
})

test('a handler error under fail-open does nothing; unknown hooks in options are ignored', async () => {
  const r = new Router()
  r.onToolPre(() => {
    throw new Error('oops')
  })
  const { hooks } = await host(opencode(r, { log: () => {}, hooks: ['shell.env', 'not.a.hook'] }))
  assert.ok('shell.env' in hooks && !('not.a.hook' in hooks))
  const out = { args: { command: 'rm -rf /' } }
  await hooks['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 't' }, out)
  assert.deepEqual(out.args, { command: 'rm -rf /' })
})

test('bridge: the Rust guard over agenthooks serve blocks and rewrites', { skip: GUARD ? false : 'target/debug/guard not built' }, async () => {
  const plugin = opencode({ command: [GUARD], log: () => {} })
  const { hooks } = await host(plugin)
  await assert.rejects(hooks['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 'b1' }, { args: { command: 'rm -rf /tmp/x' } }), {
    message: 'destructive command: rm -rf /tmp/x',
  })
  const args = { command: 'npm install' }
  await hooks['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 'b2' }, { args })
  assert.deepEqual(args, { command: 'npm ci' })
})

test('bridge: a program that cannot run gets the fail policy', async () => {
  const { hooks } = await host(opencode({ command: ['/nonexistent/agenthooks-guard'], fail: 'closed', timeoutMs: 500, log: () => {} }))
  await assert.rejects(hooks['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 'x' }, { args: { command: 'ls' } }), {
    message: /fail-closed/,
  })
  const { hooks: open } = await host(opencode({ command: ['/nonexistent/agenthooks-guard'], timeoutMs: 500, log: () => {} }))
  const out = { args: { command: 'ls' } }
  await open['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 'x' }, out)
  assert.deepEqual(out, { args: { command: 'ls' } })
})

test('bridge: a program that never answers is cut at the plugin deadline', async () => {
  // `sh -c 'sleep 2' x agenthooks serve ...`: reads nothing, answers nothing.
  const plugin = opencode({ command: ['sh', '-c', 'sleep 2', 'x'], fail: 'closed', timeoutMs: 200, log: () => {} })
  const { hooks } = await host(plugin)
  const t0 = Date.now()
  await assert.rejects(hooks['tool.execute.before']({ tool: 'bash', sessionID: SES, callID: 'h' }, { args: { command: 'ls' } }), {
    message: /handler_timeout.*fail-closed/,
  })
  assert.ok(Date.now() - t0 < 1500)
})
