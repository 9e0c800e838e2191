// The tool output and the raw payload are read on demand: an event holds
// the head of the canonical JSON, and `output` / `raw` are parsed from the
// core the first time a handler reads them.
import { test } from 'node:test'
import assert from 'node:assert/strict'

import { Decision, Router, decode, run } from '../lib/index.mjs'

const post = {
  session_id: 's',
  hook_event_name: 'PostToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'make' },
  tool_use_id: 't',
  tool_response: { stdout: 'ok "quoted"\n', exit_code: 0 },
}

test('output and raw are lazy members with the canonical values', () => {
  const ev = decode('claude-code', JSON.stringify(post))
  for (const name of ['output', 'raw']) {
    const d = Object.getOwnPropertyDescriptor(ev, name)
    assert.equal(typeof d.get, 'function', `${name} is computed on first read`)
    assert.equal(d.enumerable, true)
  }
  assert.deepEqual(ev.output, post.tool_response)
  assert.equal(ev.output, ev.output, 'parsed once')
  assert.deepEqual(ev.raw, post)
  assert.deepEqual(JSON.parse(JSON.stringify(ev)).output, post.tool_response)
  ev.output = 'replaced'
  assert.equal(ev.output, 'replaced')
  const pre = decode('claude-code', { ...post, hook_event_name: 'PreToolUse', tool_response: undefined })
  assert.equal('output' in pre, false, 'no output member when the agent sent none')
})

test('a large output (kept unparsed by the core until read) reads whole', () => {
  const stdout = 'line\twith "quotes" é\n'.repeat(8000)
  const big = { ...post, tool_response: { stdout, exit_code: 0 } }
  const text = JSON.stringify(big)
  assert.ok(text.length > 128 * 1024)
  const ev = decode('claude-code', text)
  assert.equal('output' in ev, true)
  assert.deepEqual(ev.output, big.tool_response)
  assert.deepEqual(JSON.parse(JSON.stringify(ev)).output, big.tool_response)
  // An empty array padded past the threshold is still "no output".
  const padded = `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{},"tool_response":[${' '.repeat(70000)}]}`
  assert.equal('output' in decode('claude-code', padded), false)
})

test('a handler run by run() reads the output on demand', async () => {
  let seen
  const r = new Router().onToolPost((e) => {
    seen = e.output
    return Decision.noDecision()
  })
  const resp = await run(r, ['hook', 'agenthooks', 'run', '--provider=claude-code'], JSON.stringify(post))
  assert.equal(resp.exitCode ?? resp.exit_code, 0)
  assert.deepEqual(seen, post.tool_response)
})
