'use strict'
// When the native addon cannot load, the guard still answers.
//
// A hook or plugin whose addon fails to load (an unsupported platform, a
// corrupted or missing `.node`, an ABI mismatch) would throw at import:
// OpenCode then drops the plugin without a word, a hook process dies with
// exit 1, and the tool runs whatever the fail policy said. Instead,
// `loadNative()` (used by lib/index.js in place of `require('../index.js')`)
// returns a pure-JS stand-in when the load fails: `Router`, `Decision`,
// `Policy`, `when`/`any`/`all` keep working, `main(router)` and `run()`
// answer every call with the declared fail policy (the router's, or
// `--fail=` in argv) in the agent's own blocking form, and both plugins
// answer their hooks the same way (plugins/common.js). The answers come
// from fail-table.json, rendered from the core's fail answers by
// core/src/failsafe.rs and checked against it by a Rust test, so they
// cannot drift. Every other API throws an Error with code
// `native_unavailable` naming the cause; stderr (and the agent's log, for
// the plugins) says `agenthooks: native_unavailable: <cause>`.
//
// What is answered (the same rules as bindings/python's _failsafe.py):
// fail open: the agent's "no opinion". Fail closed: the event is named
// from the payload (the dialect's event field) or `--event`; when it is
// one on which the core blocks after a handler failure (`closed_blocks`)
// and the router could have gated it (a handler for its kind or native
// name, middleware, or a kind spelling this table does not know; unknown
// routers and bridges: always), the core's answer to an unreadable
// payload blocks it; on any other event nothing is blocked (the core only
// logs there). An event that cannot be named is blocked. `--match` /
// `--hook-id` filters are not evaluated (fail closed then blocks more,
// never less).

const fs = require('node:fs')

/** How a Router tells the failsafe whether it could gate an event (lib/index.js). */
const GATES = Symbol.for('agenthooks.gates')

let state = null // {native, cause}
let table = null
// A kind spelling the table does not know was registered: every event then
// counts as gated. Process-wide (a router may come from another copy of
// the package than the plugin's).
const UNKNOWN_SPELLING = Symbol.for('agenthooks.failsafe.unknownSpelling')

function tableOf() {
  table ??= require('./fail-table.json')
  return table
}

// One line per error of the napi loader's chain (deepest, i.e. the first
// attempt, the package's own `.node` file, first), bounded.
function describe(e) {
  const lines = []
  const seen = new Set()
  for (let cur = e, depth = 0; cur && depth < 16; cur = cur.cause, depth++) {
    let msg
    try {
      msg = String(cur && cur.message !== undefined ? cur.message : cur)
    } catch {
      msg = 'unknown error'
    }
    const first = msg.split('\n')[0].trim()
    if (first && !seen.has(first)) {
      seen.add(first)
      lines.push(first)
    }
  }
  // The napi loader's own message ("Cannot find native binding ...") says
  // less than its causes; the WASI fallbacks' (the last ones) say nothing.
  const top = lines.shift() ?? 'no detail'
  let text = lines.length ? lines.reverse().slice(0, 2).join('; ') : top
  if (text.length > 600) text = `${text.slice(0, 597)}...`
  return text
}

function unavailableError(cause, what) {
  const e = new Error(`agenthooks: ${cause}; \`${what}\` needs the native core (reinstall agenthooks for this platform)`)
  e.name = 'AgentHooksError'
  e.code = 'native_unavailable'
  return e
}

function normalizeKind(s) {
  return String(s).replace(/[.\-_ ]/g, '').toLowerCase()
}

// The stand-in for the addon: what lib/index.js touches when a module is
// loaded and a Router is built works; everything else throws.
function shim(cause, loadError) {
  const t = tableOf()
  class NativeError {
    constructor(code, message) {
      this.code = code
      this.message = message
    }
    static create(code, message) {
      return new NativeError(code, message)
    }
  }
  const base = {
    unavailable: cause,
    loadError,
    NativeError,
    errorCodes: () => [...t.error_codes],
    providers: () => [...t.provider_ids],
    kinds: () => [...t.kinds],
    version: () => {
      try {
        return require('../package.json').version
      } catch {
        return t.version
      }
    },
    // The policy as declared, over the core defaults; never throws (a
    // Router must still be constructible).
    policyNormalize: (json) => {
      let p = {}
      try {
        p = JSON.parse(json)
      } catch {
        // keep the defaults
      }
      return JSON.stringify({ ...t.policy, ...(p && typeof p === 'object' && !Array.isArray(p) ? p : {}) })
    },
    // The canonical kind of a spelling the table knows; any other spelling
    // is kept (registration must not throw) and makes every event gated.
    parseKind: (s) => {
      const k = t.kind_spellings[normalizeKind(s)]
      if (typeof k === 'string') return k
      globalThis[UNKNOWN_SPELLING] = true
      return String(s)
    },
  }
  return new Proxy(base, {
    get(target, prop) {
      if (prop in target) return target[prop]
      if (typeof prop === 'symbol' || prop === 'then') return undefined
      // A plain function (it has a prototype: `x instanceof native.Y` works).
      return function unavailable() {
        throw unavailableError(cause, String(prop))
      }
    },
  })
}

/**
 * The addon (`../index.js`), or, when it cannot load, the stand-in whose
 * `unavailable` is `native_unavailable: <why>`. Loaded once.
 */
function loadNative() {
  if (state === null) {
    try {
      state = { native: require('../index.js'), cause: null }
    } catch (e) {
      const cause = `native_unavailable: cannot load the agenthooks native addon: ${describe(e)}`
      state = { native: shim(cause, e), cause }
    }
  }
  return state.native
}

/** `native_unavailable: <why>` when the addon cannot load, else null. */
function unavailable() {
  loadNative()
  return state.cause
}

// ---------------------------------------------------------------- answers

function gates(router, name, kind, provider) {
  if (!router || globalThis[UNKNOWN_SPELLING]) return true
  const f = router[GATES]
  if (typeof f !== 'function') return true
  try {
    return f.call(router, { native_name: name, kind, provider }) !== false
  } catch {
    return true
  }
}

function fill(entry, why) {
  const t = tableOf()
  return {
    stdout: String(entry.stdout).split(t.placeholder).join(JSON.stringify(why).slice(1, -1)),
    stderr: String(entry.stderr).split(t.placeholder).join(why),
    exit_code: entry.exit_code,
    notes: [],
  }
}

function payloadObject(payload) {
  if (payload && typeof payload === 'object' && !Buffer.isBuffer(payload) && !(payload instanceof Uint8Array)) {
    return payload
  }
  const t = tableOf()
  try {
    const bytes = typeof payload === 'string' ? Buffer.from(payload) : Buffer.from(payload ?? [])
    if (bytes.length > t.max_bytes) return {}
    const v = JSON.parse(bytes.toString('utf8'))
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {}
  } catch {
    return {}
  }
}

/**
 * The failsafe answer `{stdout, stderr, exit_code, notes}` for one call:
 * `provider`, `payload` (text, bytes or an already-parsed frame), `fail`
 * (the effective posture), `router` (null: unknown, gates everything),
 * `event` (the `--event` value), `why` (replaces the placeholder; default
 * the load failure).
 */
function answer({ provider, payload, fail, router = null, event = null, why = null }) {
  const t = tableOf()
  why = why ?? unavailable() ?? 'native_unavailable: the native addon is not loaded'
  const closed = fail === 'closed'
  const entry = t.providers[String(provider ?? '').trim().toLowerCase().replace(/_/g, '-')]
  if (!entry) return fill(t.unknown_provider[closed ? 'closed' : 'open'], why)
  if (!closed) return fill(entry.open, why)
  const obj = payloadObject(payload)
  const str = (f) => (typeof obj[f] === 'string' ? obj[f] : undefined)
  let name
  for (const f of entry.event_fields) {
    name ??= str(f)
  }
  name ??= event ?? undefined
  if (name !== undefined) {
    const kind = entry.kinds[name] ?? 'other'
    if (!entry.closed_blocks.includes(name) || !gates(router, name, kind, provider)) {
      const r = fill(entry.open, why)
      r.stderr = `agenthooks: ${why} (fail-closed: nothing to block on ${name})\n`
      return r
    }
  }
  const peek = str('hook_event_name') ?? str('hookEventName')
  const special = peek !== undefined && Object.prototype.hasOwnProperty.call(entry.closed_events, peek)
  return fill(special ? entry.closed_events[peek] : entry.closed, why)
}

// ---------------------------------------------------------------- the run

/** argv after the `agenthooks` word, leniently (unknown options ignored). */
function parseArgs(argv) {
  const pos = argv.indexOf('agenthooks')
  if (pos < 0) return null
  const rest = argv.slice(pos + 1)
  const out = { command: 'run' }
  let i = 0
  if (rest.length && !String(rest[0]).startsWith('--')) {
    out.command = String(rest[0])
    i = 1
  }
  for (; i < rest.length; i++) {
    const a = String(rest[i])
    if (!a.startsWith('--')) continue
    let k
    let v
    const eq = a.indexOf('=')
    if (eq >= 0) {
      k = a.slice(2, eq)
      v = a.slice(eq + 1)
    } else {
      k = a.slice(2)
      v = rest[i + 1] !== undefined ? String(rest[++i]) : ''
    }
    if (k === 'agent' || k === 'dialect') k = 'provider'
    if (!(k in out)) out[k] = v
  }
  return out
}

function failOf(router, args) {
  if (args.fail === 'open' || args.fail === 'closed') return args.fail
  let f
  try {
    f = router && router.policy && router.policy.fail
  } catch {
    f = undefined
  }
  return f === 'closed' ? 'closed' : 'open'
}

// Older Cursor builds pass the payload as an argv argument.
function argvPayload(argv) {
  for (let i = argv.length - 1; i >= 1; i--) {
    const t = String(argv[i]).trim()
    if (t.startsWith('{') && t.endsWith('}')) return t
  }
  return ''
}

/** `run()` while the addon cannot load: resolves to the failsafe answer. */
async function run(router, argv, payload) {
  const args = parseArgs(argv)
  if (!args) return { stdout: '', stderr: `agenthooks: ${unavailable()}\n`, exit_code: 64, notes: [] }
  let p = payload ?? ''
  if ((typeof p === 'string' || Buffer.isBuffer(p)) && String(p).trim() === '') p = argvPayload(argv)
  return answer({ provider: args.provider, payload: p, fail: failOf(router, args), router, event: args.event })
}

function writeFd(fd, text) {
  try {
    fs.writeSync(fd, text)
  } catch {
    // closed: nothing more to do
  }
}

// Reads stdin to its end (bounded), or what came within `ms`.
function readStdin(limit, ms) {
  return new Promise((resolve) => {
    const chunks = []
    let n = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(Buffer.concat(chunks))
    }
    const timer = setTimeout(finish, ms)
    try {
      process.stdin.on('data', (c) => {
        n += c.length
        if (n <= limit + 1) chunks.push(c)
      })
      process.stdin.on('end', finish)
      process.stdin.on('error', finish)
    } catch {
      finish()
    }
  })
}

// `serve` for the plugin bridges: a hello with the effective policy, then
// one failsafe answer per request line.
function serve(router, args) {
  const t = tableOf()
  const fail = failOf(router, args)
  const provider = args.provider ?? ''
  const cause = unavailable()
  let buf = ''
  const onLine = (line) => {
    if (line.trim() === '') return
    let obj = null
    try {
      obj = JSON.parse(line)
    } catch {
      obj = null
    }
    if (obj && typeof obj === 'object' && obj.hello !== undefined) {
      const hello = { provider, version: t.version, policy: { ...t.policy, fail }, deadline_ms: 0 }
      writeFd(1, `${JSON.stringify({ hello })}\n`)
      return
    }
    const seq = obj && typeof obj === 'object' ? obj.seq ?? null : null
    const r = answer({ provider, payload: obj ?? line, fail, router })
    const out = { seq, error: { code: 'native_unavailable', message: cause } }
    if (r.stdout.trim() !== '') out.output = JSON.parse(r.stdout)
    writeFd(1, `${JSON.stringify(out)}\n`)
    if (r.stderr) writeFd(2, r.stderr)
  }
  process.stdin.setEncoding('utf8')
  process.stdin.on('data', (c) => {
    buf += c
    let nl
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl)
      buf = buf.slice(nl + 1)
      onLine(line)
    }
  })
  process.stdin.on('end', () => {
    if (buf) onLine(buf)
    process.exit(0)
  })
  return new Promise(() => {})
}

/** `main(router)` while the addon cannot load: answers and exits. */
function main(router) {
  const argv = process.argv.slice(1)
  const args = parseArgs(argv)
  if (!args) {
    const prog = argv[0] ?? '<program>'
    writeFd(2, `agenthooks: ${unavailable()}\nagenthooks: this program is a coding-agent hook; run it as \`${prog} agenthooks run --provider=<agent>\` with the payload on stdin\n`)
    process.exit(64)
  }
  if (args.command === 'serve') return serve(router, args)
  const t = tableOf()
  readStdin(t.max_bytes, 10000).then((bytes) => {
    const payload = bytes.toString('utf8').trim() === '' ? argvPayload(argv) : bytes
    const r = answer({ provider: args.provider, payload, fail: failOf(router, args), router, event: args.event })
    if (r.stderr) writeFd(2, r.stderr)
    if (r.stdout) writeFd(1, r.stdout)
    process.exit(r.exit_code)
  })
  return new Promise(() => {})
}

/**
 * The one loud line a plugin writes when it starts without its addon:
 * to `log` (stderr, or the agent's logger).
 */
function announce(log, host) {
  const cause = unavailable()
  if (!cause) return null
  const line = `agenthooks: ${cause}; ${host} hooks are answered by the fail policy alone (fail closed: the events the router gates are blocked; fail open: no opinion)`
  try {
    log(line)
  } catch {
    writeFd(2, `${line}\n`)
  }
  return line
}

module.exports = { GATES, answer, announce, describe, loadNative, main, parseArgs, run, unavailable }
