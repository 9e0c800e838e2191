// Plugin overhead (issue 6 item 8): per OpenCode `tool.execute.before`
// through the plugin in-process (target <= 50 us), the same through the
// bridge (plugin -> `<guard> agenthooks serve --provider=opencode` NDJSON
// round trip -> answer applied), beside the bare per-event decode + answer
// through napi. The hook is driven with a simulated input/output as the
// plugin tests do. `node plugins/bench.mjs [--quick]` (make plugins-bench);
// prints a Markdown table for docs/benchmarks.md, never gates CI.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { opencode } from './opencode.mjs'

const require = createRequire(import.meta.url)
const { Decision, Router, answer, decode } = require('../lib/index.js')
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const GUARD = process.env.AH_GUARD ?? path.join(REPO, 'target/debug/guard')
const QUICK = process.argv.includes('--quick')
const N = QUICK ? 2000 : 20000
const NB = QUICK ? 300 : 3000

const client = { config: { async get() { return { data: {} } } } }
const ctx = { client, directory: '/repo', worktree: '/repo' }
const DENY = Decision.deny('destructive command')
const router = new Router().onToolPre((e) => (e.tool.command?.includes('rm -rf') ? DENY : undefined))

async function median(name, fn, n) {
  for (let i = 0; i < Math.min(n, 1000); i++) await fn(i)
  const runs = []
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < n; i++) await fn(i)
    runs.push(Number(process.hrtime.bigint() - t0) / n / 1000)
  }
  runs.sort((a, b) => a - b)
  return { name, us: runs[2] }
}

// One tool.execute.before as OpenCode makes it: a fresh output per call.
function before(hooks, i, command = 'npm test') {
  return hooks['tool.execute.before']({ tool: 'bash', sessionID: 'ses_bench', callID: `c${i}` }, { args: { command } })
}
async function beforeDenied(hooks, i) {
  try {
    await before(hooks, i, 'rm -rf /repo/x')
  } catch {
    return
  }
  throw new Error('expected a block')
}

const FRAME = JSON.stringify({
  hook: 'tool.execute.before',
  input: { tool: 'bash', sessionID: 'ses_bench', callID: 'c1' },
  output: { args: { command: 'npm test' } },
  plugin: { directory: '/repo', worktree: '/repo' },
})

const rows = []
rows.push(await median('napi: decode + answer of one OpenCode frame (no decision)', () => answer(decode('opencode', FRAME), undefined), N))
rows.push(await median('napi: decode + answer of one OpenCode frame (deny)', () => answer(decode('opencode', FRAME), DENY), N))
const inproc = await opencode(router, { log: () => {} })(ctx)
rows.push(await median('**plugin in-process: `tool.execute.before`, no opinion**', (i) => before(inproc, i), N))
rows.push(await median('plugin in-process: `tool.execute.before`, deny (throws)', (i) => beforeDenied(inproc, i), N))
let bridged = null
// The bridge unrefs its child and pipes (it never keeps a host alive on its
// own); a real host's server holds the loop, here a timer does.
const keepAlive = setInterval(() => {}, 1 << 30)
if (fs.existsSync(GUARD)) {
  bridged = await opencode({ command: [GUARD], log: () => {} })(ctx)
  rows.push(await median('plugin bridged (NDJSON round trip to `guard agenthooks serve`), no opinion', (i) => before(bridged, i), NB))
  rows.push(await median('plugin bridged, deny (throws)', (i) => beforeDenied(bridged, i), NB))
} else {
  rows.push({ name: `plugin bridged: SKIPPED (${path.relative(REPO, GUARD)} not built)`, us: NaN })
}

console.log(`Node ${process.version}, ${os.cpus()[0]?.model ?? os.arch()}; guard: ${path.relative(REPO, GUARD)}; median of 5 runs\n`)
console.log('| per OpenCode `tool.execute.before` | µs |')
console.log('|---|---:|')
for (const r of rows) console.log(`| ${r.name} | ${Number.isNaN(r.us) ? '—' : r.us.toFixed(1)} |`)
const target = rows.find((r) => r.name.startsWith('**plugin in-process'))
console.log(`\nin-process target <= 50 us: ${target.us <= 50 ? 'met' : 'NOT met'} (${target.us.toFixed(1)} us)`)
clearInterval(keepAlive)
process.exit(0)
