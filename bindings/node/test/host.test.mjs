// The host side and install surfaces: hostRun (a Claude Code config whose
// hook exits 2, exactly as Claude Code would run it), matcherTest in both
// dialects, install -> reinstall (unchanged) -> uninstall in a temp project,
// doctor; errors as AgentHooksError with the core's codes.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { AgentHooksError, doctor, hostRun, install, matcherTest, uninstall } from '../lib/index.mjs'

const SETTINGS = JSON.stringify({
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no rm here" >&2; exit 2' }] },
      { matcher: 'Write', hooks: [{ type: 'command', command: 'exit 0' }] },
    ],
  },
})
const PAYLOAD = {
  session_id: 's', cwd: os.tmpdir(), hook_event_name: 'PreToolUse', tool_name: 'Bash',
  tool_input: { command: 'rm -rf /' }, tool_use_id: 't1',
}

test('hostRun: an `exit 2` hook blocks with its stderr, only the matching group runs', () => {
  const r = hostRun({ dialect: 'claude-code', configs: [{ source: 'settings.json', text: SETTINGS }], event: PAYLOAD })
  assert.equal(r.dialect, 'claude-code')
  assert.equal(r.event, 'PreToolUse')
  assert.deepEqual(r.subjects, ['Bash'])
  assert.equal(r.hooks.length, 1)
  assert.equal(r.hooks[0].exit_code, 2)
  assert.equal(r.hooks[0].timed_out, false)
  assert.equal(r.outcome.decision, 'deny')
  assert.equal(r.outcome.reason, 'no rm here')
  assert.ok(r.audit.some((a) => a.record === 'result' && a.exit_code === 2), JSON.stringify(r.audit))
  assert.deepEqual(r.warnings, [])
  // Not matched: no hook runs, no decision.
  const ls = hostRun({
    dialect: 'claude-code', configs: [{ text: SETTINGS }], sequential: true,
    event: { ...PAYLOAD, tool_name: 'Read', tool_input: { file_path: '/x' } },
  })
  assert.equal(ls.hooks.length, 0)
})

test('hostRun: Codex dialect, a config from a file, camelCase options', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-node-host-'))
  try {
    const file = path.join(dir, 'hooks.json')
    fs.writeFileSync(file, SETTINGS)
    const r = hostRun({ dialect: 'codex', configs: [{ path: file }], event: PAYLOAD, eventProvider: 'claude-code', defaultTimeoutS: 5, cwd: dir })
    assert.equal(r.dialect, 'codex')
    assert.equal(r.hooks.length, 1)
    assert.equal(r.hooks[0].exit_code, 2)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('hostRun: errors are AgentHooksError with the core code', () => {
  assert.throws(() => hostRun({}), (e) => e instanceof AgentHooksError && e.code === 'invalid_argument')
  assert.throws(() => hostRun({ dialect: 'nope', event: PAYLOAD }), { code: 'unknown_provider' })
  // An invalid matcher skips its group, as the agent does; strict refuses.
  const bad = JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash(', hooks: [{ type: 'command', command: 'x' }] }] } })
  const skipped = hostRun({ dialect: 'claude-code', configs: [{ text: bad }], event: PAYLOAD })
  assert.deepEqual(skipped.warnings.map((d) => d.code), ['invalid_regex'])
  assert.throws(() => hostRun({ dialect: 'claude-code', configs: [{ text: bad }], event: PAYLOAD, strict: true }), (e) => {
    assert.ok(e instanceof AgentHooksError)
    assert.equal(e.code, 'config_rejected')
    assert.ok(Array.isArray(e.diagnostics) && e.diagnostics.length > 0, JSON.stringify(e.diagnostics))
    return true
  })
  assert.throws(() => hostRun({ dialect: 'claude-code', configs: [{ path: '/nonexistent/settings.json' }], event: PAYLOAD }), { code: 'io' })
  assert.throws(() => hostRun(null), { code: 'invalid_argument' })
})

test('hostRun strict: a bad group next to a good one is skipped, unless strict refuses the config', () => {
  const mixed = JSON.stringify({
    hooks: {
      PreToolUse: [
        { matcher: 'Bash(', hooks: [{ type: 'command', command: 'echo bad >&2; exit 2' }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo good >&2; exit 2' }] },
      ],
    },
  })
  const req = { dialect: 'claude-code', configs: [{ source: 'settings.json', text: mixed }], event: PAYLOAD }
  for (const lenient of [req, { ...req, strict: false }]) {
    const r = hostRun(lenient)
    assert.equal(r.hooks.length, 1)
    assert.match(r.hooks[0].command, /good/)
    assert.equal(r.outcome.decision, 'deny')
    assert.equal(r.outcome.reason, 'good')
    assert.deepEqual(r.warnings.map((d) => [d.code, d.severity, d.group_index]), [['invalid_regex', 'error', 0]])
  }
  assert.throws(() => hostRun({ ...req, strict: true }), (e) => {
    assert.ok(e instanceof AgentHooksError)
    assert.equal(e.code, 'config_rejected')
    assert.deepEqual(e.diagnostics.map((d) => d.code), ['invalid_regex'])
    return true
  })
})

test('matcherTest: Claude Code (ECMAScript) and Codex (Rust regex) flavours', () => {
  assert.deepEqual(matcherTest('claude-code', 'Bash', ['Bash', 'bash', 'Write']), [true, false, false])
  assert.deepEqual(matcherTest('claude-code', 'Edit|Write', ['Edit', 'Write', 'Read']), [true, true, false])
  assert.deepEqual(matcherTest('claude-code', '*', ['Anything']), [true])
  assert.deepEqual(matcherTest('codex', '(?i)^bash$', ['BASH', 'Write']), [true, false])
  assert.deepEqual(matcherTest('codex', 'Bash'), [])
  // `(?i)` is not ECMAScript: the diagnostic's code, the whole diagnostic attached.
  assert.throws(() => matcherTest('claude-code', '(?i)bash', ['bash']), (e) => {
    assert.ok(e instanceof AgentHooksError)
    assert.equal(e.code, 'invalid_regex')
    assert.equal(e.diagnostic.agent, 'claude-code')
    assert.equal(e.diagnostic.pattern, '(?i)bash')
    assert.equal(e.message, e.diagnostic.reason)
    return true
  })
  assert.throws(() => matcherTest('codex', '(unclosed', []), (e) => e instanceof AgentHooksError && e.diagnostic?.agent === 'codex')
  assert.throws(() => matcherTest('nope', 'x', []), (e) => e.code === 'unknown_provider' && e.diagnostic === undefined)
})

const MANIFEST = 'id = "guard"\nprogram = "/opt/guard"\n\n[[hooks]]\nid = "pre"\nkind = "tool.pre"\nmatch = "shell"\n'

test('install -> reinstall (unchanged) -> uninstall in a temp project; dry run writes nothing', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-node-install-'))
  try {
    const home = path.join(dir, 'home')
    const project = path.join(dir, 'project')
    fs.mkdirSync(home)
    fs.mkdirSync(project)
    const target = { agent: 'claude-code', scope: 'project', project, home, env: {} }
    const settings = path.join(project, '.claude/settings.json')

    const plan = install(MANIFEST, { ...target, dryRun: true })
    assert.equal(plan.results[0].changed, true)
    assert.match(plan.results[0].diff, /--provider=claude-code/)
    assert.ok(!fs.existsSync(settings), 'a dry run writes nothing')

    const first = install(MANIFEST, target)
    assert.equal(first.results.length, 1)
    assert.equal(first.results[0].agent, 'claude-code')
    assert.equal(first.results[0].scope, 'project')
    assert.equal(first.results[0].changed, true)
    assert.equal(first.results[0].files[0].path, settings)
    const text = fs.readFileSync(settings, 'utf8')
    assert.match(text, /\/opt\/guard agenthooks run --provider=claude-code/)

    const again = install(MANIFEST, target)
    assert.equal(again.results[0].changed, false, 'reinstall is a no-op')
    assert.equal(fs.readFileSync(settings, 'utf8'), text)

    // The installed hook is what the host side sees.
    const r = hostRun({ dialect: 'claude-code', configs: [{ path: settings }], event: { ...PAYLOAD, tool_input: { command: 'ls' } } })
    assert.deepEqual(r.subjects, ['Bash'])

    const report = doctor({ home, project, env: {} })
    assert.ok(Array.isArray(report.agents))

    const gone = uninstall(MANIFEST, target)
    assert.equal(gone.results[0].changed, true)
    assert.doesNotMatch(fs.existsSync(settings) ? fs.readFileSync(settings, 'utf8') : '', /\/opt\/guard/)
    assert.equal(uninstall(MANIFEST, target).results[0].changed, false, 'uninstall twice is a no-op')

    // A manifest object works as well as its text.
    const obj = { id: 'guard', program: '/opt/guard', hooks: [{ id: 'pre', kind: 'tool.pre', match: 'shell' }] }
    assert.equal(install(obj, { ...target, dryRun: true }).results[0].changed, true)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('install: bad requests throw AgentHooksError', () => {
  assert.throws(() => install(undefined, { agent: 'claude-code' }), { code: 'invalid_argument' })
  assert.throws(() => install('not = [valid', { agent: 'claude-code', dryRun: true }), { code: 'manifest' })
  assert.throws(() => install(MANIFEST, { agent: 'nope', dryRun: true }), { code: 'unknown_provider' })
  assert.throws(() => install(MANIFEST, { scope: 'galaxy', dryRun: true }), { code: 'invalid_argument' })
})
