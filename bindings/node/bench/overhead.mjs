// Boundary overhead of the Node binding: per-call cost of decode + respond
// from JS (the target is <= 20 us), the pieces, a router decision, and a
// whole hook process. `node bench/overhead.mjs [--quick]`; prints a
// Markdown table (numbers go to docs/benchmarks.md, never gate CI).
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { Decision, Router, answer, decode, respond } from 'agenthooks'

const require = createRequire(import.meta.url)
const native = require('../index.js')
const HERE = path.dirname(fileURLToPath(import.meta.url))
const QUICK = process.argv.includes('--quick')

const PAYLOAD = JSON.stringify({
  session_id: '8b5f2c1e-4c1d-4b5e-9a57-2f5d0c3b9e11',
  transcript_path: '/home/u/.claude/projects/app/8b5f2c1e.jsonl',
  cwd: '/home/u/app',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'npm test -- --watch=false', description: 'Run the tests' },
  tool_use_id: 'toolu_01ABCDEF',
})
const BIG = JSON.stringify({
  session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: '/x' },
  tool_use_id: 't', tool_response: { content: 'x'.repeat(100_000) },
})
const DENY = Decision.deny('destructive command')
const router = new Router().onToolPre((e) => (e.tool.command?.includes('rm') ? DENY : undefined))

function bench(name, fn, n) {
  for (let i = 0; i < Math.min(n, 2000); i++) fn()
  const runs = []
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < n; i++) fn()
    runs.push(Number(process.hrtime.bigint() - t0) / n / 1000)
  }
  runs.sort((a, b) => a - b)
  return { name, us: runs[2] }
}

async function benchAsync(name, fn, n) {
  for (let i = 0; i < 1000; i++) await fn()
  const runs = []
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < n; i++) await fn()
    runs.push(Number(process.hrtime.bigint() - t0) / n / 1000)
  }
  runs.sort((a, b) => a - b)
  return { name, us: runs[2] }
}

const N = QUICK ? 2000 : 20000
const ev = decode('claude-code', PAYLOAD)
const rows = [
  bench('napi call floor (`version()`)', () => native.version(), N * 5),
  bench('decode (PreToolUse, 370 B) -> event object', () => decode('claude-code', PAYLOAD), N),
  bench('respond (deny) on a decoded event', () => respond(ev, DENY), N),
  bench('**decode + respond** (per hook call)', () => respond(decode('claude-code', PAYLOAD), DENY), N),
  bench('decode + respond, no decision', () => respond(decode('claude-code', PAYLOAD), undefined), N),
  bench('decode + answer (in-process plugin path)', () => answer(decode('claude-code', PAYLOAD), DENY), N),
  await benchAsync('decode + router.decide (1 handler) + respond', async () => {
    const e = decode('claude-code', PAYLOAD)
    return respond(e, await router.decide(e))
  }, N),
  bench('decode PostToolUse with a 100 kB output', () => decode('claude-code', BIG), QUICK ? 200 : 1000),
]

function processRun(cmd, args, n) {
  const runs = []
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint()
    const p = spawnSync(cmd, [...args, 'agenthooks', 'run', '--provider=claude-code'], { input: PAYLOAD })
    if (p.status !== 0) throw new Error(String(p.stderr))
    runs.push(Number(process.hrtime.bigint() - t0) / 1e6)
  }
  runs.sort((a, b) => a - b)
  return runs[Math.floor(n / 2)]
}
const guard = path.join(HERE, '../../../examples/node/guard.mjs')
const procN = QUICK ? 3 : 15
const nodeGuard = processRun(process.execPath, [guard], procN)
const bare = processRun(process.execPath, ['-e', 'process.stdin.resume();process.stdin.on("end",()=>{})'], procN)

console.log(`Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} (${os.cpus().length} cores), median of 5 batches`)
console.log('')
console.log('| operation | per call |')
console.log('|---|---|')
for (const r of rows) console.log(`| ${r.name} | ${r.us.toFixed(2)} µs |`)
console.log(`| hook process: \`node examples/node/guard.mjs\` (median of ${procN}) | ${nodeGuard.toFixed(1)} ms |`)
console.log(`| bare \`node\` reading stdin (median of ${procN}) | ${bare.toFixed(1)} ms |`)
