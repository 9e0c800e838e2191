// A fake `<program> agenthooks serve` for the plugin tests: answers the
// hello with AH_FAKE_HELLO (JSON; default a hello with policy fail
// AH_FAKE_FAIL), then every request as AH_FAKE_MODE says. `replay` answers
// the n-th request with the n-th frame of AH_FAKE_REPLIES (a JSON array),
// its seq replaced by the request's.
import readline from 'node:readline'

const mode = process.env.AH_FAKE_MODE ?? 'ok-null'
const fail = process.env.AH_FAKE_FAIL ?? 'open'
const hello = process.env.AH_FAKE_HELLO
  ? JSON.parse(process.env.AH_FAKE_HELLO)
  : { hello: { provider: 'opencode', version: '0', policy: { fail }, deadline_ms: 1000 } }
const replies = JSON.parse(process.env.AH_FAKE_REPLIES ?? '[]')
let n = 0

const write = (v) => process.stdout.write(`${typeof v === 'string' ? v : JSON.stringify(v)}\n`)

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line)
  if (msg.hello) return write(hello)
  const seq = msg.seq
  const err = { code: 'handler_error', message: 'agenthooks: handler_error: handler error: boom' }
  switch (mode) {
    case 'ok-null':
      return write({ seq, output: null })
    case 'error-no-output':
      return write({ seq, error: err })
    case 'error-null-output':
      return write({ seq, output: null, notes: [{ code: 'fail_open', from: 'handler_error', to: 'no_decision' }], error: err })
    case 'error-block-output':
      return write({ seq, output: { throw: 'the program says no (its own reason)' }, error: err })
    case 'no-output':
      return write({ seq })
    case 'bad-output':
      return write({ seq, output: 'allow' })
    case 'seq-null':
      return write({ seq: null, output: null, error: { code: 'invalid_json', message: 'not a frame' } })
    case 'huge':
      // A line over the plugin's limit (never kept), then the real reply.
      process.stdout.write(`${'x'.repeat(65 * 1024 * 1024)}\n`)
      return write({ seq, output: { throw: 'after the huge line' } })
    case 'replay':
      return write({ ...replies[n++], seq })
    default:
      throw new Error(`unknown mode ${mode}`)
  }
})
