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

test('serve: a line over --max-bytes is answered and skipped, every reply carries output', async () => {
  const p = spawn(process.execPath, [path.join(MISSING, 'hook.mjs'), 'agenthooks', 'serve', '--provider=opencode', '--max-bytes=1000'], {
    env: { ...process.env, AH_FAIL: 'closed' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let out = ''
  p.stdout.on('data', (c) => { out += c })
  p.stdin.write(`{"seq": 1, "pad": "${'x'.repeat(200000)}"}\n`)
  p.stdin.end(`${JSON.stringify({ seq: 2, hook: 'tool.execute.before', input: { tool: 'bash' }, output: { args: {} } })}\n`)
  const code = await new Promise((resolve) => p.on('exit', resolve))
  assert.equal(code, 0)
  const [first, second] = out.trim().split('\n').map((l) => JSON.parse(l))
  assert.equal(first.seq, null)
  assert.ok('output' in first && first.error.code === 'native_unavailable')
  assert.equal(second.seq, 2)
  assert.match(second.output.throw, /native_unavailable/)
})

// ------------------------------------------------- argv: the core's rules
// The stand-in parses argv itself; it must read it as the core's run entry
// does (core/src/runtime.rs launch / start / universal_answer), or a typo in
// a config opens a guard that was configured closed. The router is fail open
// (no AH_FAIL) unless a case says otherwise.

const CLAUDE = ['agenthooks', 'run', '--provider=claude-code']
const STOP = JSON.stringify({ session_id: 's', hook_event_name: 'Stop', stop_hook_active: false })

test('attack: a typo in --fail is read as closed', () => {
  let r = hook(MISSING, [...CLAUDE, '--fail=closd'], PRE)
  assert.equal(r.code, 2, r.stderr)
  assert.equal(r.stdout, '')
  assert.ok(r.stderr.includes('--fail') && r.stderr.includes('closd'), r.stderr)
  r = hook(MISSING, [...CLAUDE, '--fail'], PRE)
  assert.equal(r.code, 2, r.stderr)
  assert.ok(r.stderr.includes('`--fail` needs a value'), r.stderr)
})

test('attack: a decoy JSON argument never replaces stdin', () => {
  const closed = [...CLAUDE, '--fail=closed']
  // Before the `agenthooks` word: never the payload (stdin real or empty).
  for (const stdin of [PRE, '']) {
    const r = hook(MISSING, [STOP, ...closed], stdin)
    assert.equal(r.code, 2, `${JSON.stringify(stdin)}: ${r.stderr}`)
  }
  // Last: the payload only when stdin is blank (ASCII whitespace).
  let r = hook(MISSING, [...closed, STOP], PRE)
  assert.equal(r.code, 2, r.stderr)
  for (const notBlank of ['\x0b', '\u00a0', '\ufeff']) {
    r = hook(MISSING, [...closed, STOP], notBlank)
    assert.equal(r.code, 2, `${JSON.stringify(notBlank)}: ${r.stderr}`)
  }
  // The legacy argv mode itself: blank stdin, JSON last.
  r = hook(MISSING, [...closed, STOP], ' \n')
  assert.deepEqual([r.code, r.stdout], [0, ''], r.stderr)
})

test('attack: an option is never the value of the option before it', () => {
  const r = hook(MISSING, ['agenthooks', 'run', '--provider', '--fail=closed'], PRE)
  assert.equal(r.code, 2, r.stderr)
  assert.equal(r.stdout, '')
  assert.ok(r.stderr.includes('`--provider` needs a value') && r.stderr.includes('exit 2'), r.stderr)
})

test('attack: an unknown option is a warning and the block stands', () => {
  for (const extra of [['--timout=5'], ['--timout', '5'], ['--timout']]) {
    const r = hook(MISSING, [...CLAUDE, ...extra, '--fail=closed'], PRE)
    assert.equal(r.code, 2, `${extra}: ${r.stderr}`)
    assert.ok(r.stderr.includes('ignored unknown option `--timout'), r.stderr)
  }
  const r = hook(MISSING, [...CLAUDE, '--timout', '5', '--fail=closed'], PRE)
  assert.ok(r.stderr.includes('ignored unexpected argument `5`'), r.stderr)
})

test('attack: the last --fail wins, as in the core', () => {
  const r = hook(MISSING, [...CLAUDE, '--fail=open', '--fail=closed'], PRE)
  assert.equal(r.code, 2, r.stderr)
})

test('an unknown provider gets the universal answer; an alias is known', () => {
  const argv = ['agenthooks', 'run', '--provider=claude-cod', '--fail=closed']
  let r = hook(MISSING, argv, PRE)
  assert.deepEqual([r.code, r.stdout], [2, ''], r.stderr)
  assert.ok(r.stderr.includes('unknown_provider') && r.stderr.includes('claude-cod'), r.stderr)
  // exit 2 on a stop event would make the agent continue: no opinion, logged.
  r = hook(MISSING, argv, STOP)
  assert.deepEqual([r.code, r.stdout], [0, ''], r.stderr)
  assert.ok(r.stderr.includes('logged_only'), r.stderr)
  const perm = JSON.stringify({ hook_event_name: 'PermissionRequest', tool_name: 'Bash' })
  r = hook(MISSING, ['agenthooks', 'run', '--provider=Claude', '--fail=closed'], perm, { AH_MIDDLEWARE: '1' })
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.decision.behavior, 'deny', r.stderr)
})

test('a bad value answers the fail policy even without a gating handler', () => {
  const prompt = JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' })
  const r = hook(MISSING, [...CLAUDE, '--fail=closed', '--timeout=ten'], prompt)
  assert.equal(r.code, 2, r.stderr)
  assert.ok(r.stderr.includes('--timeout') && r.stderr.includes('ten'), r.stderr)
})

test('run(): usage without the word', async () => {
  const ah = await import(pathToFileURL(path.join(MISSING, 'node_modules/agenthooks/lib/index.mjs')).href)
  const r = await ah.run(new ah.Router(), ['guard', 'run', '--provider=claude-code'], PRE)
  assert.equal(r.exit_code, 64)
  assert.ok(r.stderr.includes('agenthooks run --provider=<agent>'), r.stderr)
})

// ------------------------------------------- the shared runtime vectors
// fixtures/runtime/*.json through the stand-in (main as a process, run()
// in-process). The stand-in cannot decode or run handlers, so it is held to
// the vector's outcome class: usage (exit 64), block (exit 2 or the agent's
// JSON deny), or no opinion (exit 0, empty or `{}` stdout); exactly (exit
// code and stdout) where the core's answer does not depend on decoding (an
// unknown provider, usage, serve). Where a vector cannot apply, the reason
// is here.

const HANDLER_ONLY = "the core's answer is the vector guard's own deny under a fail-open router; without the core no handler runs and fail open answers no opinion, which is what is checked here (the argv rule the vector pins is attacked above)"
// Vectors whose expected class the stand-in cannot give: the class it must give instead, and why.
const MODE_ONLY = "the core's answer is the vector guard's ask as the session mode shapes it (issue 14); without the core no handler runs and fail open answers no opinion"
const STAND_IN_CLASS = {
  'runtime/argv-json-before-the-word': ['none', HANDLER_ONLY],
  'runtime/argv-json-last-with-stdin': ['none', HANDLER_ONLY],
  'runtime/argv-payload-empty-stdin': ['none', HANDLER_ONLY],
  'runtime/deep-tool-input': ['none', HANDLER_ONLY],
  'runtime/huge-max-bytes': ['none', `${HANDLER_ONLY}; the huge limit must not break the stdin read`],
  'runtime/huge-numbers': ['none', HANDLER_ONLY],
  'runtime/lone-surrogate': ['none', HANDLER_ONLY],
  'runtime/typo-option-space-form': ['none', HANDLER_ONLY],
  'runtime/match-admits-the-class': ['none', HANDLER_ONLY],
  'runtime/mode-claude-ci-deny': ['none', MODE_ONLY],
  'runtime/mode-claude-headless-argv-deny': ['none', MODE_ONLY],
  'runtime/mode-claude-headless-env-deny': ['none', MODE_ONLY],
  'runtime/mode-claude-headless-native': ['none', MODE_ONLY],
  'runtime/mode-claude-interactive-env-ask': ['none', MODE_ONLY],
  'runtime/mode-claude-unknown-ask': ['none', MODE_ONLY],
  'runtime/mode-codex-exec-deny': ['none', MODE_ONLY],
  'runtime/mode-copilot-headless-p-deny': ['none', MODE_ONLY],
  'runtime/mode-cursor-headless-p-deny': ['none', MODE_ONLY],
  'runtime/mode-gemini-headless-native-never-hangs': ['none', MODE_ONLY],
  'runtime/mode-gemini-headless-p-deny': ['none', MODE_ONLY],
  'runtime/mode-gemini-headless-positional-deny': ['none', MODE_ONLY],
  'runtime/mode-gemini-headless-stdin-deny': ['none', MODE_ONLY],
  'runtime/mode-gemini-interactive-ask': ['none', MODE_ONLY],
  'runtime/mode-gemini-interactive-flag-ask': ['none', MODE_ONLY],
  'runtime/mode-gemini-unknown-degrades': ['none', MODE_ONLY],
  'runtime/mode-kimi-headless-p-deny': ['none', MODE_ONLY],
  'runtime/match-other-class-is-a-noop': ['block', 'the stand-in cannot evaluate --match (it does not decode), so the fail-closed router blocks the call the core lets through'],
}
// stderr mentions that come from the core's decoder (its error codes and
// event-name hints): the stand-in does not decode; its stderr names
// native_unavailable instead (checked for every vector).
const FROM_THE_DECODER = {
  'runtime/mode-claude-ci-deny': ['agenthooks: note: headless ask -> deny (headless (ci:GITHUB_ACTIONS=true) session'], // the core's session-mode note or answer
  'runtime/mode-claude-headless-argv-deny': ['agenthooks: note: headless ask -> deny (headless (argv:-p) session'], // the core's session-mode note or answer
  'runtime/mode-claude-headless-env-deny': ['agenthooks: note: headless ask -> deny (headless (env:CLAUDE_CODE_SESSION_ATTENDED=0) session'], // the core's session-mode note or answer
  'runtime/mode-claude-headless-no-decision': ['agenthooks: note: headless ask -> no_decision (headless (env:CLAUDE_CODE_SESSION_ATTENDED=0) session'], // the core's session-mode note or answer
  'runtime/mode-codex-exec-deny': ['agenthooks: note: headless ask -> deny (headless (argv:exec) session'], // the core's session-mode note or answer
  'runtime/mode-copilot-headless-p-deny': ['agenthooks: note: headless ask -> deny (headless (argv:-p) session'], // the core's session-mode note or answer
  'runtime/mode-cursor-headless-p-deny': ['agenthooks: note: headless ask -> deny (headless (argv:-p) session'], // the core's session-mode note or answer
  'runtime/mode-gemini-headless-native-never-hangs': ['agenthooks: note: degraded ask -> deny (Gemini CLI asks only in a session known to be interactive; session mode: headless (argv:-p))'], // the core's session-mode note or answer
  'runtime/mode-gemini-headless-no-decision': ['agenthooks: note: headless ask -> no_decision (headless (argv:-p) session'], // the core's session-mode note or answer
  'runtime/mode-gemini-headless-p-deny': ['agenthooks: note: headless ask -> deny (headless (argv:-p) session'], // the core's session-mode note or answer
  'runtime/mode-gemini-headless-positional-deny': ['agenthooks: note: headless ask -> deny (headless (argv:positional prompt) session'], // the core's session-mode note or answer
  'runtime/mode-gemini-headless-stdin-deny': ['agenthooks: note: headless ask -> deny (headless (tty:stdin is not a terminal) session'], // the core's session-mode note or answer
  'runtime/mode-gemini-unknown-degrades': ['agenthooks: note: degraded ask -> deny (Gemini CLI asks only in a session known to be interactive; session mode: unknown)'], // the core's session-mode note or answer
  'runtime/mode-kimi-headless-no-decision': ['agenthooks: note: headless ask -> no_decision (headless (argv:--print) session'], // the core's session-mode note or answer
  'runtime/mode-kimi-headless-p-deny': ['vector guard: needs approval\n'], // the core's session-mode note or answer
  'runtime/deep-array-fail-closed': ['not_an_object'],
  'runtime/lowercase-event-fail-closed': ['`pretooluse`', 'did you mean `PreToolUse`'],
  'runtime/nested-stop-name-is-not-the-event': ['invalid_utf8'],
  'runtime/stop-invalid-utf8-fail-closed': ['invalid_utf8'],
  'runtime/stop-too-large-fail-closed': ['too_large'],
  'runtime/other-agents-payload': ['warning: cursor sent the event `PreToolUse`', 'did you mean `preToolUse`', "looks like Claude Code's (is `--provider=claude-code` meant?)"],
}
const KNOWN_PROVIDERS = new Set(['claude-code', 'opencode'])
const VECTOR_DIR = path.resolve(PKG, '../../fixtures/runtime')

function vectorStdin(c) {
  if ('stdin' in c) return Buffer.from(JSON.stringify(c.stdin))
  if ('stdin_text' in c) return Buffer.from(c.stdin_text)
  if ('stdin_b64' in c) return Buffer.from(c.stdin_b64, 'base64')
  return Buffer.concat((c.stdin_parts ?? []).map((p) => Buffer.from(typeof p === 'string' ? p : p.repeat.repeat(p.times))))
}

function outcome(stdout, code) {
  if (code === 2) return 'block'
  if (code === 64) return 'usage'
  if (code !== 0) return `exit ${code}`
  if (stdout.startsWith('usage: ')) return 'help'
  if (stdout.trim() === '' || stdout.trim() === '{}') return 'none'
  const v = JSON.parse(stdout)
  const hso = v.hookSpecificOutput ?? {}
  if (hso.permissionDecision === 'deny' || hso.decision?.behavior === 'deny') return 'block'
  return 'other'
}

function checkVector(c, stdout, stderr, code, how) {
  const e = c.expect
  const where = `${c.name} (${how}): exit ${code}, stdout ${JSON.stringify(stdout)}, stderr ${JSON.stringify(stderr)}`
  let want = outcome('stdout' in e ? e.stdout : JSON.stringify(e.stdout_json), e.exit_code)
  if (STAND_IN_CLASS[c.name]) want = STAND_IN_CLASS[c.name][0]
  assert.equal(outcome(stdout, code), want, where)
  const provider = c.argv.find((a) => a.startsWith('--provider='))?.split('=')[1]
  // (A vector held to a class above is checked by its class only.)
  const exact = !KNOWN_PROVIDERS.has(provider) && !STAND_IN_CLASS[c.name]
  if (want === 'usage' || want === 'help' || exact || c.argv.includes('serve')) {
    const norm = (s) => {
      try {
        return JSON.parse(s)
      } catch {
        return s
      }
    }
    const wantStdout = 'stdout' in e ? e.stdout : JSON.stringify(e.stdout_json)
    assert.deepEqual([code, norm(stdout)], [e.exit_code, norm(wantStdout)], where)
  }
  for (const s of e.stderr_contains ?? []) {
    if (!(FROM_THE_DECODER[c.name] ?? []).includes(s)) assert.ok(stderr.includes(s), `${where} lacks ${JSON.stringify(s)}`)
  }
  assert.ok(stderr.includes(MARKER), where)
}

test('the shared runtime vectors through the stand-in (main and run)', async () => {
  const files = fs.readdirSync(VECTOR_DIR).filter((f) => f.endsWith('.json')).sort()
  const cases = files.map((f) => JSON.parse(fs.readFileSync(path.join(VECTOR_DIR, f), 'utf8')))
  const names = new Set(cases.map((c) => c.name))
  for (const n of [...Object.keys(STAND_IN_CLASS), ...Object.keys(FROM_THE_DECODER)]) assert.ok(names.has(n), n)
  for (const root of [MISSING, CORRUPT]) {
    fs.writeFileSync(path.join(root, 'vector.mjs'), `
import { Router, Decision, main } from 'agenthooks'
const router = new Router({ policy: JSON.parse(process.env.AH_VECTOR_POLICY) })
router.onToolPre((e) => (e.tool.command.includes('rm -rf') ? Decision.deny('vector guard: rm -rf is not allowed') : undefined))
main(router)
`)
    const ah = await import(pathToFileURL(path.join(root, 'node_modules/agenthooks/lib/index.mjs')).href)
    for (const c of cases) {
      const env = { ...process.env, AH_VECTOR_POLICY: JSON.stringify(c.router ?? {}) }
      delete env.AGENTHOOKS_NOTES
      const p = spawnSync(process.execPath, [path.join(root, 'vector.mjs'), ...c.argv.slice(1)], {
        input: vectorStdin(c),
        env,
        encoding: 'utf8',
        timeout: 30000,
        maxBuffer: 64 * 1024 * 1024,
      })
      checkVector(c, p.stdout, p.stderr, p.status, `main, ${path.basename(root)}`)
      const router = new ah.Router({ policy: c.router ?? {} })
      router.onToolPre(() => ah.Decision.deny('vector guard: rm -rf is not allowed'))
      const r = await ah.run(router, c.argv, vectorStdin(c))
      checkVector(c, r.stdout, r.stderr, r.exit_code, `run, ${path.basename(root)}`)
    }
  }
  console.log(`stand-in runtime vectors: ${cases.length} of ${files.length}, ${Object.keys(STAND_IN_CLASS).length} held to the fail-open class (STAND_IN_CLASS)`)
})

test("the stand-in reads argv exactly as the core (differential, with the addon)", (t) => {
  // The stand-in's plan of many argv shapes (typos, missing values, options
  // as values, decoy JSON, huge numbers) against the core's launch: the
  // parsed arguments and warnings field by field, and the problem through
  // the core's answer to it. (Whether the last argument is the argv payload
  // is not exposed by the addon: the vectors and the decoy attack cover it.)
  let native
  try {
    native = createRequire(path.join(PKG, 'x.js'))('./index.js')
  } catch (e) {
    // make node-test builds the addon first; a bare `node --test` may not have it.
    t.skip(`the addon is not built here (${String(e.message).split('\n')[0]})`)
    return
  }
  const { launch } = createRequire(path.join(PKG, 'x.js'))('./lib/failsafe.js')
  const vocab = [
    'run', 'serve', 'runn', 'x', '5', '10', 'Stop', 'kimi', '--', '-v', '',
    '--provider', '--provider=claude-code', '--provider=Claude', '--provider= gemini_CLI ',
    '--provider=claude-cod', '--provider=', '--agent', '--dialect=openclaw',
    '--fail', '--fail=closed', '--fail=open', '--fail=closd', '--fail=', '--fail=Closed',
    '--timeout', '--timeout=ten', '--timeout=1e999', '--timeout=+.5', '--timeout= 5 ',
    '--timeout=0', '--timeout=1_0', '--timeout=5.', '--timeout=inf', '--timeout=-1',
    '--max-bytes=18446744073709551615', '--max-bytes=18446744073709551616', '--max-bytes=+7',
    '--max-bytes=-0', '--max-bytes=0007', '--max-bytes=', '--max-bytes', '--max-bytes=1_0',
    '--timout=5', '--timout', '--event', '--event=Stop', '--variant=v', '--hook-id=h',
    '--match=Bash', '--fail=open=closed', '--provider=codex=x',
    '{"hook_event_name":"Stop"}', ' {"a":1} ', '{bad}', '{"a":NaN}', '[1]', '{}',
  ]
  let seed = 22 // mulberry32: deterministic shapes
  const rand = (n) => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) % n
  }
  const shapes = []
  for (let k = 0; k < 3000; k++) shapes.push(['guard', 'agenthooks', ...Array.from({ length: rand(7) }, () => vocab[rand(vocab.length)])])
  shapes.push(['guard', '{"hook_event_name":"Stop"}', 'agenthooks', 'run'], ['guard', 'run'], ['agenthooks'])
  for (const argv of shapes) {
    const core = native.launch(argv)
    const mine = launch(argv)
    const where = JSON.stringify(argv)
    if (!(core instanceof native.NativePlan)) {
      // No word (usage), or `serve` with a problem (answered in launch).
      assert.ok(mine === null || (mine.command === 'serve' && mine.problem !== null), where)
      continue
    }
    assert.notEqual(mine, null, where)
    const a = core.args
    assert.deepEqual(
      [core.command, a.provider, a.event, a.timeoutS, a.fail, a.maxBytes, core.warnings],
      [mine.command, mine.provider, mine.event, mine.timeoutS, mine.fail, mine.maxBytes, mine.warnings],
      where,
    )
    const r = core.prepare(a, JSON.stringify({ fail: 'closed' }), Buffer.from('{}'))
    const stderr = r instanceof native.NativeInvocation ? '' : r.stderr
    if (mine.problem) assert.ok(stderr.includes(`${mine.problem[0]}: ${mine.problem[1]}`), `${where}: ${stderr}`)
    else assert.ok(!/invalid argument: |unknown provider `(?!\(not detected)/.test(stderr), `${where}: ${stderr}`)
  }
  const distinct = new Set(shapes.map((s) => JSON.stringify(s))).size
  assert.ok(distinct > 2000, `the shapes are varied (${distinct} distinct)`)
})
