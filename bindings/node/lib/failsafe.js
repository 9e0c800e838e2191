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
//
// argv is read by the core's rules (core/src/runtime.rs: launch, start,
// universal_answer; `launch` below), checked against the core by a
// differential test: an unknown option or a stray argument is a warning; a
// value that cannot be used (`--fail=closd`, `--timeout=ten`, an option
// without its value, an unknown command) or an unknown provider is answered
// with the fail policy before any handler (so the router cannot narrow it),
// and an unusable `--fail` reads as closed; the space form never takes an
// argument starting with `--` as a value; the last `--fail` wins; stdin is
// the payload (read first, up to `--max-bytes` plus one byte), and only a
// JSON object as the last argument after the `agenthooks` word replaces it,
// when stdin is blank; an agent that cannot be named gets exit 2 with the
// reason, or no opinion on a stop event.

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

// What Rust's `u8::is_ascii_whitespace` accepts (no vertical tab): the
// core's test for a blank stdin and the JSON scanner's whitespace.
const ASCII_WS = new Set([0x20, 0x09, 0x0a, 0x0c, 0x0d])
// Rust's `str::trim` (Unicode White_Space), for argv values.
const trim = (s) => s.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '')
// The payload keys the core peeks at for an event name (EVENT_NAME_KEYS).
const EVENT_NAME_KEYS = ['hook_event_name', 'hookEventName']
const USIZE_MAX = 2n ** 64n - 1n
const utf8 = new TextDecoder('utf-8', { fatal: true })

function toBytes(payload) {
  if (Buffer.isBuffer(payload)) return payload
  if (payload instanceof Uint8Array) return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)
  return Buffer.from(typeof payload === 'string' ? payload : String(payload ?? ''))
}

// The payload as a JSON object, or null when it is not one (not JSON,
// invalid UTF-8: the core cannot decode it either).
function parseObject(bytes) {
  try {
    const v = JSON.parse(utf8.decode(bytes))
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null
  } catch {
    return null
  }
}

// The core's tolerant JSON string reader (dialect::json::lex_string): the
// value and the index after the closing quote (length + 1 when cut off).
function lexString(b, at) {
  let i = at + 1
  const raw = []
  let units = []
  const flush = () => {
    if (units.length) {
      let s = String.fromCharCode(...units)
      if (typeof s.toWellFormed === 'function') s = s.toWellFormed()
      raw.push(...Buffer.from(s, 'utf8'))
      units = []
    }
  }
  while (i < b.length) {
    const c = b[i]
    if (c === 0x22) {
      flush()
      return [Buffer.from(raw).toString('utf8'), i + 1]
    }
    if (c === 0x5c) {
      if (i + 1 >= b.length) break
      const e = b[i + 1]
      if (e === 0x75) {
        const h = b.subarray(i + 2, i + 6).toString('latin1')
        if (/^(?:\+[0-9a-fA-F]{3}|[0-9a-fA-F]{4})$/.test(h)) {
          units.push(parseInt(h, 16))
          i += 6
        } else {
          flush()
          raw.push(0xef, 0xbf, 0xbd)
          i += 2
        }
        continue
      }
      flush()
      raw.push({ 0x6e: 0x0a, 0x74: 0x09, 0x72: 0x0d, 0x62: 0x08, 0x66: 0x0c }[e] ?? e)
      i += 2
      continue
    }
    flush()
    raw.push(c)
    i += 1
  }
  flush()
  return [Buffer.from(raw).toString('utf8'), b.length + 1]
}

/**
 * The event name of a payload that may not parse at all (invalid UTF-8,
 * cut off at the read limit), from its top-level keys only: the core's
 * `dialect::json::peek_event_name`, so a `"Stop"` nested in the tool input
 * is never the payload's event. null when there is none.
 */
function peekEventName(b) {
  const found = EVENT_NAME_KEYS.map(() => undefined) // undefined: unseen; null: two names
  const n = b.length
  let i = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0
  while (i < n && ASCII_WS.has(b[i])) i++
  if (i >= n || b[i] !== 0x7b) return null
  i++
  let depth = 1
  let keyNext = true
  while (i < n) {
    const c = b[i]
    if (c === 0x22) {
      const [s, after] = lexString(b, i)
      i = after
      if (depth === 1 && keyNext) {
        keyNext = false
        let j = i
        while (j < n && ASCII_WS.has(b[j])) j++
        const slot = EVENT_NAME_KEYS.indexOf(s)
        if (j >= n || b[j] !== 0x3a || slot < 0) continue
        j++
        while (j < n && ASCII_WS.has(b[j])) j++
        if (j >= n || b[j] !== 0x22) continue
        const [value, end] = lexString(b, j)
        i = end
        if (end > n || b[end - 1] !== 0x22) continue // cut off: not a name
        if (found[slot] === undefined) found[slot] = value
        else if (found[slot] !== value) found[slot] = null // two names for one key: trust neither
      }
      continue
    }
    if (c === 0x7b || c === 0x5b) depth++
    else if (c === 0x7d || c === 0x5d) {
      depth--
      if (depth === 0) break
    } else if (c === 0x2c && depth === 1) keyNext = true
    i++
  }
  return found.find((f) => typeof f === 'string' && f !== '') ?? null
}

// Whether any agent names a stop event so (is_stop_event_anywhere).
function isStopAnywhere(name) {
  return Object.values(tableOf().providers).some((p) => ['agent.stop', 'subagent.stop'].includes(p.kinds[name]))
}

// The id of a `--provider` value as Provider::parse reads it (trimmed,
// ASCII lower case, `_` as `-`; the table's spellings), else null.
function providerId(provider) {
  if (provider === undefined || provider === null) return null
  const norm = trim(String(provider)).replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/_/g, '-')
  const id = Object.prototype.hasOwnProperty.call(tableOf().provider_spellings, norm) ? tableOf().provider_spellings[norm] : null
  return typeof id === 'string' ? id : null
}

function unknownProvider(given) {
  return `unknown provider \`${given}\` (known: ${tableOf().provider_ids.join(', ')})`
}

// The answer when the agent cannot be named (runtime::universal_answer):
// fail open: no opinion; fail closed: exit 2 with the reason on stderr (the
// one block every command-hook agent reads), except on a stop event (named
// from the payload's top-level keys, else `--event`), where exit 2 would
// make the agent continue: no opinion, logged.
function universal(bytes, closed, event, why, problem) {
  const t = tableOf()
  let r
  let outcome
  if (!closed) {
    r = fill(t.unknown_provider.open, why)
    outcome = 'fail-open: no decision'
  } else {
    const name = (bytes ? peekEventName(bytes) : null) ?? event ?? null
    if (name !== null && isStopAnywhere(name)) {
      outcome = `fail-closed: logged_only on ${name}; a block there would make the agent continue`
      r = fill(t.unknown_provider.open, why)
      r.stderr = `agenthooks: ${why} (${outcome})\n`
    } else {
      r = fill(t.unknown_provider.closed, why)
      outcome = 'fail-closed: exit 2, the block every agent reads'
    }
  }
  if (problem) r.stderr = `agenthooks: ${problem[0]}: ${problem[1]} (${outcome})\n${r.stderr}`
  return r
}

// The answer of a named agent (`entry`: its table row).
function known(entry, payload, closed, router, event, why, limit, provider) {
  if (!closed) return fill(entry.open, why)
  const frame = payload && typeof payload === 'object' && !(payload instanceof Uint8Array)
  const bytes = frame ? null : toBytes(payload)
  const obj = frame ? payload : bytes.length <= limit ? parseObject(bytes) : null
  let peek
  if (obj) {
    const str = (f) => (typeof obj[f] === 'string' ? obj[f] : undefined)
    let name
    for (const f of entry.event_fields) name ??= str(f)
    name = name || (event ?? undefined)
    if (name !== undefined) {
      const kind = entry.kinds[name] ?? 'other'
      if (!entry.closed_blocks.includes(name) || !gates(router, name, kind, provider)) {
        const r = fill(entry.open, why)
        r.stderr = `agenthooks: ${why} (fail-closed: nothing to block on ${name})\n`
        return r
      }
    }
    peek = str('hook_event_name') ?? str('hookEventName')
  } else {
    // Unreadable (not JSON, invalid UTF-8, over the limit): the core peeks
    // at the top-level keys of what was read.
    peek = peekEventName(bytes) ?? undefined
  }
  const special = peek !== undefined && Object.prototype.hasOwnProperty.call(entry.closed_events, peek)
  return fill(special ? entry.closed_events[peek] : entry.closed, why)
}

/**
 * The failsafe answer `{stdout, stderr, exit_code, notes}` for one call:
 * `provider`, `payload` (text, bytes or an already-parsed frame), `fail`
 * (the effective posture), `router` (null: unknown, gates everything),
 * `event` (the `--event` value), `why` (replaces the placeholder; default
 * the load failure), `limit` (the `--max-bytes` read limit), `problem` (an
 * argv value that cannot be used, `[code, message]`: answered before any
 * handler, so the router cannot narrow it).
 */
function answer({ provider, payload, fail, router = null, event = null, why = null, limit = null, problem = null }) {
  const t = tableOf()
  why = why ?? unavailable() ?? 'native_unavailable: the native addon is not loaded'
  const closed = fail === 'closed'
  const id = providerId(provider)
  if (id === null) {
    if (!problem && provider !== undefined && provider !== null) problem = ['unknown_provider', unknownProvider(provider)]
    const frame = payload && typeof payload === 'object' && !(payload instanceof Uint8Array)
    return universal(frame ? Buffer.from(JSON.stringify(payload)) : toBytes(payload), closed, event, why, problem)
  }
  const r = known(t.providers[id], payload, closed, problem ? null : router, event, why, limit ?? t.max_bytes, provider)
  if (problem) r.stderr = `agenthooks: ${problem[0]}: ${problem[1]}\n${r.stderr}`
  return r
}

// ---------------------------------------------------------------- the run

const KNOWN_OPTIONS = new Set(['--provider', '--agent', '--dialect', '--event', '--variant', '--timeout', '--fail', '--hook-id', '--match', '--max-bytes', '--observed'])

// mode::Observation::from_json without the core: the message of an
// `--observed` value it rejects, else null (the stand-in does not decide
// the session mode; it only refuses what the core refuses).
function observedProblem(text) {
  let v
  try { v = JSON.parse(text) } catch { return '--observed: not JSON' }
  const isObj = (x) => x !== null && typeof x === 'object' && !Array.isArray(x)
  if (!isObj(v)) return '--observed: expected an object'
  const strings = (argv) => {
    if (argv.length > 256) return 'an argv is too long'
    if (!argv.every((a) => typeof a === 'string')) return 'argv items must be strings'
    return null
  }
  for (const [k, val] of Object.entries(v)) {
    if (k === 'env' && isObj(val)) {
      if (!Object.values(val).every((x) => typeof x === 'string')) return '--observed: env values must be strings'
    } else if (k === 'ancestors' && Array.isArray(val)) {
      if (val.length > 8) return '--observed: too many ancestors'
      for (const a of val) {
        let m = null
        if (Array.isArray(a)) m = strings(a)
        else if (isObj(a)) {
          for (const [ak, av] of Object.entries(a)) {
            if (ak === 'argv' && Array.isArray(av)) m = m ?? strings(av)
            else if ((ak === 'tty' || ak === 'stdin_tty') && typeof av === 'boolean') continue
            else m = m ?? `ancestor: unexpected \`${ak}\` (expected argv: array, tty / stdin_tty: bool)`
          }
        } else m = 'an ancestor is an argv array or an object'
        if (m) return `--observed: ${m}`
      }
    } else return `--observed: unexpected \`${k}\` (expected env: object, ancestors: array)`
  }
  return null
}

function isJsonObject(a) {
  const t = trim(a)
  return t.startsWith('{') && t.endsWith('}') && Buffer.byteLength(a) <= tableOf().max_bytes && parseObject(Buffer.from(a)) !== null
}

/**
 * runtime::launch (parse_plan) without the core: null without the
 * `agenthooks` word, else the plan `{command, provider, event, timeoutS,
 * fail, maxBytes, warnings, problem, argvPayload}`. An unknown option or a
 * stray argument is a warning; a value that cannot be used (or an unknown
 * provider or command) is the plan's `problem` ([code, message]); the space
 * form never takes an argument starting with `--` as a value; the last
 * `--fail` wins and an unusable one reads as closed; only a JSON object as
 * the last argument after the word is the legacy argv payload.
 */
function launch(argv) {
  argv = argv.map(String)
  const pos = argv.indexOf('agenthooks')
  if (pos < 0) return null
  const rest = argv.slice(pos + 1)
  const plan = { command: 'run', warnings: '', problem: null, argvPayload: null }
  const bad = (message, code = 'invalid_argument') => {
    plan.problem ??= [code, code === 'invalid_argument' ? `invalid argument: ${message}` : message]
  }
  if (rest.length && !rest[rest.length - 1].startsWith('--') && isJsonObject(rest[rest.length - 1])) {
    plan.argvPayload = Buffer.from(rest.pop())
  }
  let i = 0
  if (rest.length && !rest[0].startsWith('--')) {
    plan.command = rest[0]
    i = 1
    if (rest[0] !== 'run' && rest[0] !== 'serve') bad(`unknown command \`${rest[0]}\` (expected \`run\` or \`serve\`)`)
  }
  while (i < rest.length) {
    const a = rest[i++]
    if (!a.startsWith('--')) {
      plan.warnings += `agenthooks: warning: ignored unexpected argument \`${a}\`\n`
      continue
    }
    const eq = a.indexOf('=')
    const key = eq < 0 ? a : a.slice(0, eq)
    if (!KNOWN_OPTIONS.has(key)) {
      plan.warnings += `agenthooks: warning: ignored unknown option \`${a}\` (a newer agenthooks wrote this config?)\n`
      continue
    }
    let val
    if (eq >= 0) val = a.slice(eq + 1)
    else if (i < rest.length && !rest[i].startsWith('--')) val = rest[i++]
    else {
      bad(`\`${a}\` needs a value`)
      if (a === '--fail') plan.fail = 'closed'
      else if (a === '--provider' || a === '--agent' || a === '--dialect') plan.provider = '' // named but unusable: never guessed
      continue
    }
    if (key === '--provider' || key === '--agent' || key === '--dialect') {
      if (providerId(val) === null) bad(unknownProvider(val), 'unknown_provider')
      plan.provider = val
    } else if (key === '--event') plan.event = val
    else if (key === '--timeout') {
      const v = trim(val)
      const t = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(v) ? Number(v) : NaN
      if (t > 0 && Number.isFinite(t)) plan.timeoutS = t
      else bad(`--timeout: \`${val}\` is not a number of seconds greater than 0`)
    } else if (key === '--fail') {
      if (val === 'open' || val === 'closed') plan.fail = val
      else {
        plan.fail = 'closed' // a typo must not open a guard
        bad(`--fail: \`${val}\` is neither \`open\` nor \`closed\` (read as closed)`)
      }
    } else if (key === '--observed') {
      const m = observedProblem(val)
      if (m) bad(m)
    } else if (key === '--max-bytes') {
      const v = trim(val).replace(/^\+/, '')
      if (/^[0-9]+$/.test(v) && BigInt(v) <= USIZE_MAX) plan.maxBytes = Number(v)
      else bad(`--max-bytes: \`${val}\` is not a byte count (0 to ${USIZE_MAX})`)
    }
  }
  return plan
}

// `--fail` when given (an unusable value reads as closed), else the router's.
function failOf(router, plan) {
  if (plan.fail === 'open' || plan.fail === 'closed') return plan.fail
  let f
  try {
    f = router && router.policy && router.policy.fail
  } catch {
    f = undefined
  }
  return f === 'closed' ? 'closed' : 'open'
}

const readLimit = (plan) => plan.maxBytes ?? tableOf().max_bytes

// runtime::start's choice: stdin (null: it could not be read), unless it
// holds nothing but ASCII whitespace and argv ended with a JSON object
// after the word.
function payloadOf(plan, stdin) {
  if (plan.argvPayload && (stdin === null || stdin.every((c) => ASCII_WS.has(c)))) return plan.argvPayload
  return stdin ?? Buffer.alloc(0)
}

function answerPlan(router, plan, bytes) {
  const r = answer({ provider: plan.provider, payload: bytes, fail: failOf(router, plan), router, event: plan.event, limit: readLimit(plan), problem: plan.problem })
  r.stderr = plan.warnings + r.stderr
  return r
}

/** runtime::launch's `--help`: `--help` or `-h` after the `agenthooks` word answers the run entry's usage on stdout, exit 0 (null otherwise). */
function help(argv) {
  const at = argv.indexOf('agenthooks')
  if (at < 0 || !argv.slice(at + 1).some((a) => a === '--help' || a === '-h')) return null
  return { stdout: tableOf().run_usage, stderr: `agenthooks: ${unavailable()}\n`, exit_code: 0, notes: [] }
}

function usage(argv) {
  const prog = argv[0] ?? '<program>'
  return { stdout: '', stderr: `agenthooks: ${unavailable()}\nagenthooks: this program is a coding-agent hook; run it as \`${prog} agenthooks run --provider=<agent>\` with the payload on stdin\n`, exit_code: 64, notes: [] }
}

function cannotServe(plan) {
  if (!plan.problem) return null
  return { stdout: '', stderr: `${plan.warnings}agenthooks: ${plan.problem[0]}: ${plan.problem[1]} (cannot serve)\nagenthooks: ${unavailable()}\n`, exit_code: 2, notes: [] }
}

/** `run()` while the addon cannot load: resolves to the failsafe answer. */
async function run(router, argv, payload) {
  argv = [...argv].map(String)
  const helped = help(argv)
  if (helped) return helped
  const plan = launch(argv)
  if (!plan) return usage(argv)
  if (plan.command === 'serve') {
    return cannotServe(plan) ?? { stdout: '', stderr: `${plan.warnings}agenthooks: \`serve\` runs only as a process\nagenthooks: ${unavailable()}\n`, exit_code: 2, notes: [] }
  }
  let bytes
  if (payload === undefined || payload === null) bytes = Buffer.alloc(0)
  else if (typeof payload === 'object' && !(payload instanceof Uint8Array)) bytes = Buffer.from(JSON.stringify(payload))
  else bytes = toBytes(payload)
  return answerPlan(router, plan, payloadOf(plan, bytes.subarray(0, readLimit(plan) + 1)))
}

function writeFd(fd, text) {
  try {
    fs.writeSync(fd, text)
  } catch {
    // closed: nothing more to do
  }
}

// stdin up to `limit + 1` bytes (more means too large), as
// runtime::read_stdin: a terminal is empty (never wait for a human), an
// error is null; what came within `ms` if it never ends.
function readStdin(limit, ms) {
  return new Promise((resolve) => {
    if (process.stdin.isTTY) {
      resolve(Buffer.alloc(0))
      return
    }
    const chunks = []
    let n = 0
    let done = false
    const finish = (failed) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(failed && n === 0 ? null : Buffer.concat(chunks))
    }
    const timer = setTimeout(() => finish(false), ms)
    try {
      process.stdin.on('data', (c) => {
        if (done) return
        const take = c.subarray(0, Math.max(0, Math.min(c.length, limit + 1 - n)))
        chunks.push(take)
        n += take.length
        if (n > limit) finish(false)
      })
      process.stdin.on('end', () => finish(false))
      process.stdin.on('error', () => finish(true))
    } catch {
      finish(true)
    }
  })
}

// `serve` for the plugin bridges: a hello with the effective policy, then
// one failsafe answer per request line.
function serve(router, plan) {
  const t = tableOf()
  const fail = failOf(router, plan)
  const provider = plan.provider ?? ''
  const cause = unavailable()
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
    const r = answer({ provider: plan.provider, payload: obj ?? line, fail, router })
    // `output` is always present (null = no opinion), as in the core's serve
    // replies; `error` makes the plugin apply its fail policy.
    const out = {
      seq,
      output: r.stdout.trim() !== '' ? JSON.parse(r.stdout) : null,
      error: { code: 'native_unavailable', message: cause },
    }
    writeFd(1, `${JSON.stringify(out)}\n`)
    if (r.stderr) writeFd(2, r.stderr)
  }
  // Lines are bounded by the read limit: a longer one is answered (fail
  // policy, no seq) and its remainder skipped, never buffered whole; each
  // chunk is scanned once.
  const limit = readLimit(plan)
  let chunks = []
  let size = 0
  let skipping = false
  const take = (piece) => {
    if (skipping) return
    size += piece.length
    if (size > limit) {
      chunks = []
      size = 0
      skipping = true
      onLine('{}')
      return
    }
    chunks.push(piece)
  }
  process.stdin.on('data', (c) => {
    let start = 0
    let nl
    while ((nl = c.indexOf(10, start)) >= 0) {
      take(c.subarray(start, nl))
      if (!skipping) onLine(Buffer.concat(chunks).toString('utf8'))
      chunks = []
      size = 0
      skipping = false
      start = nl + 1
    }
    if (start < c.length) take(c.subarray(start))
  })
  process.stdin.on('end', () => {
    if (!skipping && size > 0) onLine(Buffer.concat(chunks).toString('utf8'))
    process.exit(0)
  })
  return new Promise(() => {})
}

/** `main(router)` while the addon cannot load: answers and exits. */
function main(router) {
  const argv = process.argv.slice(1)
  const helped = help(argv)
  if (helped) {
    writeFd(2, helped.stderr)
    writeFd(1, helped.stdout)
    process.exit(0)
  }
  const plan = launch(argv)
  if (!plan) {
    writeFd(2, usage(argv).stderr)
    process.exit(64)
  }
  if (plan.command === 'serve') {
    const bad = cannotServe(plan)
    if (bad) {
      writeFd(2, bad.stderr)
      process.exit(bad.exit_code)
    }
    if (plan.warnings) writeFd(2, plan.warnings)
    return serve(router, plan)
  }
  readStdin(readLimit(plan), 10000).then((stdin) => {
    const r = answerPlan(router, plan, payloadOf(plan, stdin))
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

module.exports = { GATES, answer, announce, describe, launch, loadNative, main, peekEventName, run, unavailable }
