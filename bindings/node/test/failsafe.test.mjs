// Issue 22: with the native addon missing or corrupted, the package still
// imports, and a fail-closed guard still blocks (main(), run(), both
// plugins, the serve bridge) with a reason naming the cause; fail open
// gives no opinion. Each case runs against a copy of the package in a
// temporary node_modules whose `.node` file is removed or replaced by
// garbage, as a user's install would be.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createRequire } from 'node:module'

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const MARKER = 'agenthooks: native_unavailable: '
const TABLE = JSON.parse(fs.readFileSync(path.join(PKG, 'lib/fail-table.json'), 'utf8'))

// A copy of the package as npm installs it ("files"), with the addon
// `missing` or `corrupt`.
function install(mode) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `ah-failsafe-${mode}-`))
  const dst = path.join(root, 'node_modules', 'agenthooks')
  fs.mkdirSync(dst, { recursive: true })
  for (const f of ['package.json', 'index.js', 'index.d.ts']) fs.copyFileSync(path.join(PKG, f), path.join(dst, f))
  fs.cpSync(path.join(PKG, 'lib'), path.join(dst, 'lib'), { recursive: true })
  fs.cpSync(path.join(PKG, 'plugins'), path.join(dst, 'plugins'), {
    recursive: true,
    filter: (src) => !src.includes(`${path.sep}test`),
  })
  const built = fs.readdirSync(PKG).filter((f) => f.endsWith('.node'))
  const name = built[0] ?? `agenthooks.${process.platform}-${process.arch}-gnu.node`
  if (mode === 'corrupt') fs.writeFileSync(path.join(dst, name), Buffer.from('\x7fELF this is not a shared object'.repeat(64)))
  fs.writeFileSync(path.join(root, 'hook.mjs'), `
import { Router, Decision, main, Policy, when, canonical } from 'agenthooks'
const router = new Router({ policy: process.env.AH_FAIL ? Policy.failClosed().withFail(process.env.AH_FAIL) : undefined })
router.onToolPre(when(canonical('shell'), (e) => e.tool.command.includes('rm -rf') ? Decision.deny('destructive command') : undefined))
if (process.env.AH_MIDDLEWARE) router.use((e, next) => next(e))
if (process.env.AH_SPELLING) router.on(process.env.AH_SPELLING, () => undefined)
main(router)
`)
  return root
}

const MISSING = install('missing')
const CORRUPT = install('corrupt')
process.on('exit', () => {
  for (const d of [MISSING, CORRUPT]) fs.rmSync(d, { recursive: true, force: true })
})

function hook(root, args, input, env = {}) {
  const p = spawnSync(process.execPath, [path.join(root, 'hook.mjs'), ...args], {
    input,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 20000,
  })
  return { stdout: p.stdout, stderr: p.stderr, code: p.status }
}

const PRE = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } })

test('the package imports without its addon; core calls throw native_unavailable', () => {
  for (const root of [MISSING, CORRUPT]) {
    const req = createRequire(path.join(root, 'x.js'))
    const ah = req('agenthooks')
    const r = new ah.Router({ policy: { fail: 'closed' } })
    r.onToolPre(() => ah.Decision.deny('x')).on('PreToolUse', () => undefined).use((e, n) => n(e))
    assert.equal(r.policy.fail, 'closed')
    assert.deepEqual(ah.PROVIDERS, TABLE.provider_ids)
    assert.deepEqual(ah.ERROR_CODES, TABLE.error_codes)
    assert.equal(ah.Decision.deny('why').reason, 'why')
    assert.throws(() => ah.decode('claude-code', PRE), (e) => e.code === 'native_unavailable' && e.message.includes('cannot load'))
  }
})

test('the loader error is named: the missing file, the corrupt file', () => {
  let r = hook(MISSING, ['agenthooks', 'run', '--provider=claude-code'], PRE, { AH_FAIL: 'closed' })
  assert.match(r.stderr, /Cannot find module '\.\/agenthooks\.[^']+\.node'/)
  r = hook(CORRUPT, ['agenthooks', 'run', '--provider=claude-code'], PRE, { AH_FAIL: 'closed' })
  assert.ok(r.stderr.startsWith(MARKER), r.stderr)
  assert.match(r.stderr, /agenthooks\.[^ ]+\.node/)
})

test('main(): fail closed blocks a gated event with exit 2 and the cause on stderr (Claude Code, Codex, Kimi)', () => {
  for (const provider of ['claude-code', 'codex', 'kimi-code']) {
    const r = hook(CORRUPT, ['agenthooks', 'run', `--provider=${provider}`], PRE, { AH_FAIL: 'closed' })
    assert.equal(r.code, 2, `${provider}: ${r.stderr}`)
    assert.equal(r.stdout, '')
    assert.ok(r.stderr.startsWith(MARKER), r.stderr)
  }
})

test('main(): --fail=closed in argv overrides an open router; fail open is no opinion', () => {
  let r = hook(MISSING, ['agenthooks', 'run', '--provider=claude-code', '--fail=closed'], PRE)
  assert.equal(r.code, 2, r.stderr)
  r = hook(MISSING, ['agenthooks', 'run', '--provider=claude-code'], PRE)
  assert.equal(r.code, 0)
  assert.equal(r.stdout, '')
  assert.ok(r.stderr.startsWith(MARKER) && r.stderr.includes('fail-open'), r.stderr)
  r = hook(MISSING, ['agenthooks', 'run', '--provider=cursor'], JSON.stringify({ hook_event_name: 'beforeShellExecution', command: 'ls' }))
  assert.deepEqual(JSON.parse(r.stdout), {}) // Cursor's "no opinion"
})

test('main(): events the router cannot gate, and stop events, are not blocked', () => {
  const post = JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash' })
  let r = hook(MISSING, ['agenthooks', 'run', '--provider=claude-code'], post, { AH_FAIL: 'closed' })
  assert.equal(r.code, 0, r.stderr)
  const prompt = JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' })
  r = hook(MISSING, ['agenthooks', 'run', '--provider=claude-code'], prompt, { AH_FAIL: 'closed' })
  assert.equal(r.code, 0, 'no prompt handler: nothing to block')
  r = hook(MISSING, ['agenthooks', 'run', '--provider=claude-code'], prompt, { AH_FAIL: 'closed', AH_MIDDLEWARE: '1' })
  assert.equal(r.code, 2, 'middleware could gate the prompt')
  r = hook(MISSING, ['agenthooks', 'run', '--provider=claude-code'], prompt, { AH_FAIL: 'closed', AH_SPELLING: 'user_prompt_submit' })
  assert.equal(r.code, 2, 'a prompt handler registered under another spelling')
  r = hook(MISSING, ['agenthooks', 'run', '--provider=claude-code'], prompt, { AH_FAIL: 'closed', AH_SPELLING: 'no-such-kind' })
  assert.equal(r.code, 2, 'a spelling the table does not know: gated')
  const stop = JSON.stringify({ hook_event_name: 'Stop' })
  r = hook(MISSING, ['agenthooks', 'run', '--provider=claude-code'], stop, { AH_FAIL: 'closed', AH_MIDDLEWARE: '1' })
  assert.equal(r.code, 0, 'exit 2 on Stop would keep the agent looping')
})

test('main(): each agent gets its own blocking form', () => {
  let r = hook(MISSING, ['agenthooks', 'run', '--provider=gemini'], JSON.stringify({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command' }), { AH_FAIL: 'closed' })
  assert.equal(r.code, 0)
  assert.equal(JSON.parse(r.stdout).decision, 'deny')
  r = hook(MISSING, ['agenthooks', 'run', '--provider=copilot', '--event=preToolUse'], JSON.stringify({ toolName: 'bash', toolArgs: '{}' }), { AH_FAIL: 'closed' })
  const out = JSON.parse(r.stdout)
  assert.equal(out.permissionDecision, 'deny')
  assert.match(out.permissionDecisionReason, /native_unavailable: cannot load/)
  // An agent the failsafe cannot name: exit 2 with the reason.
  r = hook(MISSING, ['agenthooks', 'run'], PRE, { AH_FAIL: 'closed' })
  assert.equal(r.code, 2)
})

test('run() answers in-process with the failsafe answer', async () => {
  const ah = await import(pathToFileURL(path.join(MISSING, 'node_modules/agenthooks/lib/index.mjs')).href)
  const router = new ah.Router({ policy: { fail: 'closed' } })
  router.onToolPre(() => ah.Decision.deny('x'))
  const r = await ah.run(router, ['x', 'agenthooks', 'run', '--provider=claude-code'], PRE)
  assert.equal(r.exit_code, 2)
  assert.ok(r.stderr.startsWith(MARKER))
})

function plugins(root) {
  const req = createRequire(path.join(root, 'x.js'))
  return { ah: req('agenthooks'), opencode: req('agenthooks/opencode').opencode, openclaw: req('agenthooks/openclaw').openclaw }
}

test('OpenCode plugin: tool.execute.before throws the cause; the rest goes on; loud in the log', async () => {
  const { ah, opencode } = plugins(CORRUPT)
  const router = new ah.Router({ policy: { fail: 'closed' } })
  router.onToolPre(() => ah.Decision.deny('destructive command'))
  const logs = []
  const appLogs = []
  const ctx = { directory: '/p', client: { app: { log: async (r) => appLogs.push(r) } } }
  const hooks = await opencode(router, { log: (l) => logs.push(l) })(ctx)
  await assert.rejects(
    hooks['tool.execute.before']({ tool: 'bash', sessionID: 's', callID: 'c' }, { args: { command: 'rm -rf /' } }),
    (e) => /^Blocked because .*\(native_unavailable: cannot load the agenthooks native addon: .*\.node/.test(e.message),
  )
  // No prompt handler: the prompt is not blocked.
  await hooks['chat.message']({ sessionID: 's' }, { message: {}, parts: [] })
  await hooks['chat.params']({ sessionID: 's' }, { temperature: 0 })
  assert.ok(logs.some((l) => l.startsWith(MARKER)), logs.join('\n'))
  await new Promise((r) => setImmediate(r))
  assert.equal(appLogs.length, 1)
  assert.ok(appLogs[0].body.message.startsWith(MARKER))
  assert.equal(appLogs[0].body.level, 'error')
})

test('OpenCode plugin: fail open gives no opinion', async () => {
  const { ah, opencode } = plugins(MISSING)
  const router = new ah.Router()
  router.onToolPre(() => ah.Decision.deny('x'))
  const hooks = await opencode(router, { log: () => {} })({})
  const output = { args: { command: 'rm -rf /' } }
  await hooks['tool.execute.before']({ tool: 'bash', sessionID: 's', callID: 'c' }, output)
  assert.deepEqual(output, { args: { command: 'rm -rf /' } })
})

test('OpenClaw plugin: before_tool_call blocks with the cause; before_agent_run only when gated', async () => {
  const { ah, openclaw } = plugins(MISSING)
  for (const middleware of [false, true]) {
    const router = new ah.Router({ policy: { fail: 'closed' } })
    router.onToolPre(() => ah.Decision.deny('x'))
    if (middleware) router.use((e, next) => next(e))
    const handlers = new Map()
    const warned = []
    openclaw(router).register({ on: (n, h) => handlers.set(n, h), logger: { warn: (l) => warned.push(l) } })
    assert.ok(warned.some((l) => l.startsWith(MARKER)), warned.join('\n'))
    const r = await handlers.get('before_tool_call')({ toolName: 'exec', params: { command: 'rm -rf /' }, toolCallId: `t${middleware}` }, { sessionId: 's' })
    assert.equal(r.block, true)
    assert.match(r.blockReason, /native_unavailable: cannot load/)
    const run = await handlers.get('before_agent_run')({ prompt: 'hi', runId: 'r' }, { sessionId: 's' })
    if (middleware) assert.equal(run.outcome, 'block')
    else assert.equal(run, undefined)
  }
})

test('the openclaw-package entry waits for its router before answering', async () => {
  const root = MISSING
  fs.writeFileSync(path.join(root, 'router.mjs'), `
import { Router, Decision } from 'agenthooks'
const router = new Router({ policy: { fail: 'closed' } })
router.onToolPre(() => Decision.deny('x'))
export default router
`)
  const entry = (await import(pathToFileURL(path.join(root, 'node_modules/agenthooks/plugins/openclaw-package/index.js')).href)).default
  const handlers = new Map()
  entry.register({ on: (n, h) => handlers.set(n, h), logger: { warn: () => {} }, pluginConfig: { router: path.join(root, 'router.mjs') } })
  const r = await handlers.get('before_tool_call')({ toolName: 'exec', params: { command: 'rm -rf /' }, toolCallId: 'z' }, { sessionId: 's' })
  assert.equal(r && r.block, true, 'the first call already knows the policy is fail-closed')
})

test('serve: a hello with the fail policy, then the failsafe answer per frame', async () => {
  const p = spawn(process.execPath, [path.join(MISSING, 'hook.mjs'), 'agenthooks', 'serve', '--provider=opencode'], {
    env: { ...process.env, AH_FAIL: 'closed' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let out = ''
  p.stdout.on('data', (c) => { out += c })
  p.stdin.write(`${JSON.stringify({ hello: { provider: 'opencode' } })}\n`)
  p.stdin.end(`${JSON.stringify({ seq: 1, hook: 'tool.execute.before', input: { tool: 'bash' }, output: { args: {} } })}\n`)
  const code = await new Promise((resolve) => p.on('exit', resolve))
  assert.equal(code, 0)
  const [hello, reply] = out.trim().split('\n').map((l) => JSON.parse(l))
  assert.equal(hello.hello.policy.fail, 'closed')
  assert.equal(reply.seq, 1)
  assert.equal(reply.error.code, 'native_unavailable')
  assert.match(reply.output.throw, /native_unavailable/)
})
