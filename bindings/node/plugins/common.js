'use strict'
// Shared by the OpenCode and OpenClaw plugins: turning live host objects
// into JSON frames (sanitized), running a frame in-process through the
// core or over the `agenthooks serve` bridge, deadlines, and the fail
// answer when nothing answered in time. Frames and answers are the
// dialects' own (core/src/dialect/opencode.rs, openclaw.rs;
// docs/canonical-json.md).

const { Bridge } = require('./bridge.js')
const failsafe = require('../lib/failsafe.js')

let ah = null
let ahError = null
/** The agenthooks package (the napi addon), loaded on first use. */
function agenthooks() {
  if (ah === null && ahError === null) {
    try {
      ah = require('../lib/index.js')
    } catch (e) {
      ahError = e
    }
  }
  if (ah === null) throw ahError
  return ah
}

// ------------------------------------------------------------ sanitizing

const SECRET_LAST = new Set([
  'token', 'secret', 'password', 'passwd', 'passphrase', 'authorization', 'cookie', 'credential',
  'credentials', 'apikey',
])
const SECRET_KEY_PREFIX = new Set(['api', 'access', 'private', 'secret', 'auth', 'signing', 'client'])

/**
 * Whether an object key names a credential: `apiKey`, `api_key`,
 * `x-api-key`, `accessToken`, `GH_TOKEN`, `clientSecret`, `password`,
 * `Authorization`, `cookie` ... (the last word of the key). Never
 * `sessionKey`, `tokens`, `maxOutputTokens`.
 */
function isSecretKey(key) {
  const words = String(key)
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  const last = words[words.length - 1]
  if (last === undefined) return false
  if (SECRET_LAST.has(last)) return true
  return last === 'key' && SECRET_KEY_PREFIX.has(words[words.length - 2])
}

function isSignal(v) {
  return (typeof AbortSignal !== 'undefined' && v instanceof AbortSignal) ||
    (typeof EventTarget !== 'undefined' && v instanceof EventTarget)
}

/**
 * A JSON-safe deep copy of a host object: functions, symbols, signals,
 * binary buffers, cycles and credential keys are dropped (never sent to
 * the core or the bridge: OpenCode's chat.params carries the provider's
 * API key, OpenClaw's Gateway contexts the whole config); `dropKeys` names
 * further top-level keys to drop (OpenClaw's `config`). Maps become
 * objects, Sets arrays, Errors `{name, message}`, BigInts strings.
 */
function sanitize(value, options = {}) {
  const drop = new Set(options.dropKeys ?? [])
  const maxDepth = options.maxDepth ?? 64
  const seen = new Set()
  const walk = (v, depth, top) => {
    if (v === null) return null
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v
      case 'number':
        return Number.isFinite(v) ? v : null
      case 'bigint':
        return v.toString()
      case 'object':
        break
      default:
        return undefined // function, symbol, undefined
    }
    if (depth > maxDepth || seen.has(v) || isSignal(v) || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) {
      return undefined
    }
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString()
    if (v instanceof Error) return { name: v.name, message: v.message }
    if (v instanceof URL) return v.href
    if (!Array.isArray(v) && !(v instanceof Map) && !(v instanceof Set) && typeof v.toJSON === 'function') {
      let j
      try {
        j = v.toJSON()
      } catch {
        return undefined
      }
      if (j === v || (j !== null && typeof j === 'object')) {
        // An object's own JSON form: walked once more, without calling toJSON.
        return j === v ? undefined : walk(j, depth + 1, top)
      }
      return walk(j, depth + 1, top)
    }
    seen.add(v)
    let out
    if (Array.isArray(v) || v instanceof Set) {
      out = []
      for (const x of v) {
        const y = walk(x, depth + 1, false)
        out.push(y === undefined ? null : y)
      }
    } else {
      out = {}
      const entries = v instanceof Map ? v.entries() : Object.entries(v)
      for (const [k, x] of entries) {
        if (typeof k !== 'string' || isSecretKey(k) || (top && drop.has(k))) continue
        const y = walk(x, depth + 1, false)
        if (y !== undefined) out[k] = y
      }
    }
    seen.delete(v)
    return out
  }
  return walk(value, 0, true)
}

// ------------------------------------------------------------ answers

/** Parses a response's stdout: the dialect's answer object, or null. */
function answerOf(resp) {
  const text = (resp && resp.stdout ? String(resp.stdout) : '').trim()
  if (text === '') return null
  return JSON.parse(text)
}

/** Writes one diagnostic line (never to stdout: hosts may parse it). */
function defaultLog(line) {
  try {
    process.stderr.write(line.endsWith('\n') ? line : `${line}\n`)
  } catch {
    // stderr closed
  }
}

function withTimeout(promise, ms, what) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const e = new Error(`${what} did not answer within ${ms} ms`)
      e.code = 'handler_timeout'
      reject(e)
    }, ms)
    if (typeof timer.unref === 'function') timer.unref()
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * The engine both plugins use: `dispatch(frame)` resolves to the core's
 * response `{stdout, stderr, exit_code, notes}` for one frame, in-process
 * (the router runs here, the core decodes and encodes through the addon)
 * or over the bridge. It never rejects: a handler error, a timeout, a dead
 * bridge, a bridge reply with an `error` or without `output`, or a frame
 * that does not decode all get the fail policy's answer (the effective
 * policy: the `fail` option, else the program's from its hello).
 *
 * options: `provider` (`opencode` | `openclaw`), `router` (in-process) or
 * `command` (bridge: string or argv array), `timeoutMs` (the plugin-owned
 * deadline), `fail` (`open` | `closed`, overrides the policy's), `env`,
 * `cwd`, `log`, `hostVersions` (for the bridge's hello), `context`.
 */
class Engine {
  constructor(options) {
    this.provider = options.provider
    this.router = options.router ?? null
    this.command = options.command ?? null
    this.timeoutMs = options.timeoutMs
    this.failOverride = options.fail ?? null
    this.log = options.log ?? defaultLog
    this.options = options
    this.bridge = null
    if (!this.router && !this.command) {
      throw new TypeError('agenthooks plugin: pass a Router, or {command: [...]} for the bridge')
    }
    // In-process without the addon: say so once, loudly (the hooks still
    // answer, with the fail policy: lib/failsafe.js).
    this.notice = this.router ? failsafe.announce(this.log, this.provider) : null
  }

  /** The effective policy (the router's or the bridge's, with `fail`). */
  policy() {
    let base = {}
    if (this.router) base = { ...this.router.policy }
    else if (this.bridge && this.bridge.policy) base = { ...this.bridge.policy }
    if (this.failOverride) base.fail = this.failOverride
    return base
  }

  /** The handler deadline in ms. */
  deadlineMs() {
    if (this.timeoutMs !== undefined) return this.timeoutMs
    const p = this.policy()
    if (typeof p.timeout_ms === 'number') return p.timeout_ms
    return this.options.defaultTimeoutMs ?? 30000
  }

  async dispatch(frame) {
    try {
      if (this.router) return await this.#inProcess(frame)
      return await this.#bridged(frame)
    } catch (e) {
      this.log(`agenthooks: ${frame.hook}: ${e && e.message ? e.message : e}`)
      return this.failAnswer(frame, e)
    }
  }

  async #inProcess(frame) {
    const down = failsafe.unavailable()
    if (down) return this.#failsafe(frame, down)
    const lib = agenthooks()
    const text = JSON.stringify(frame)
    const policy = this.policy()
    let ev
    try {
      ev = lib.decode(this.provider, text)
    } catch (e) {
      return lib.failResponseForPayload(this.provider, text, e, policy)
    }
    let outcome
    try {
      outcome = await lib.decideWithDeadline(this.router, ev, this.deadlineMs())
    } catch (e) {
      outcome = e
    }
    return lib.answer(ev, outcome, policy)
  }

  // The addon cannot load: the fail policy answers from the failsafe table,
  // blocking what this router could have gated.
  async #failsafe(frame, why) {
    if (typeof this.router.ready === 'function') {
      try {
        await this.router.ready() // a lazily loaded router: its policy
      } catch (e) {
        this.log(`agenthooks: ${frame.hook}: ${e && e.message ? e.message : e}`)
      }
    }
    return failsafe.answer({ provider: this.provider, payload: frame, fail: this.policy().fail, router: this.router, why })
  }

  async #bridged(frame) {
    if (!this.bridge) {
      this.bridge = new Bridge({
        provider: this.provider,
        command: this.command,
        // The program's deadline (90% of --timeout) falls inside ours.
        timeoutMs: this.timeoutMs ?? this.options.defaultTimeoutMs,
        env: this.options.env,
        cwd: this.options.cwd,
        log: this.log,
        hello: { provider: this.provider, versions: this.options.hostVersions ?? {}, context: this.options.context ?? {} },
      })
    }
    // The program's own deadline is 90% of --timeout; ours leaves it room.
    const ms = this.deadlineMs() + 500
    const reply = await this.bridge.request(frame, ms)
    const out = reply.output
    if (reply.error && out !== null && isAnswer(out)) {
      // The program's own fail answer (it names the cause, e.g. a missing
      // native part): taken when the plugin's fail posture is the one the
      // program answered under.
      const own = this.bridge.policy && this.bridge.policy.fail
      if (own && (this.failOverride ?? own) === own) {
        this.log(`agenthooks: ${frame.hook}: ${reply.error.code}: ${reply.error.message ?? ''}`.trimEnd())
        return { stdout: JSON.stringify(out), stderr: '', exit_code: 0, notes: reply.notes ?? [] }
      }
    }
    if (reply.error || !isAnswer(out)) {
      // An error reply, or one without a readable `output`, is never "no
      // opinion": dispatch() answers it with the plugin's fail policy
      // (closed: a block).
      const e = new Error(
        reply.error
          ? `${reply.error.code}: ${reply.error.message ?? ''}`.trimEnd()
          : `the bridge replied without an answer (\`output\` ${out === undefined ? 'missing' : 'not an object or null'})`,
      )
      e.code = reply.error && typeof reply.error.code === 'string' ? reply.error.code : 'io'
      throw e
    }
    const stdout = out === null ? '' : JSON.stringify(out)
    return { stdout, stderr: '', exit_code: 0, notes: reply.notes ?? [] }
  }

  /**
   * The fail policy's answer for a frame when no answer came (timeout,
   * dead bridge): computed by the core when the addon loads, else from
   * the failsafe table (lib/failsafe.js).
   */
  failAnswer(frame, error) {
    const policy = this.policy()
    const text = JSON.stringify(frame)
    const down = failsafe.unavailable()
    const code = (error && typeof error.code === 'string' && error.code) || 'handler_error'
    // In-process, the missing addon is the cause; bridged, the bridge's error.
    const why = down && this.router ? down : `${code}: ${error && error.message ? error.message : String(error)}`
    if (down) return failsafe.answer({ provider: this.provider, payload: frame, fail: policy.fail, router: this.router, why })
    try {
      const lib = agenthooks()
      const code = error && typeof error.code === 'string' && lib.ERROR_CODES.includes(error.code) ? error.code : 'handler_error'
      const err = new lib.AgentHooksError(code, error && error.message ? error.message : String(error))
      let ev
      try {
        ev = lib.decode(this.provider, text)
      } catch (e) {
        return lib.failResponseForPayload(this.provider, text, e, policy)
      }
      return lib.failResponse(this.provider, ev, err, policy)
    } catch {
      return failsafe.answer({ provider: this.provider, payload: frame, fail: policy.fail, router: this.router, why })
    }
  }

  close() {
    if (this.bridge) this.bridge.close()
  }
}

/** A bridge reply's `output`: the answer object, or null for no opinion. */
function isAnswer(v) {
  return v === null || (typeof v === 'object' && !Array.isArray(v))
}

/** `router` or bridge options from the plugin's first argument. */
function engineOptions(routerOrOptions, options) {
  const o = { ...(options ?? {}) }
  if (routerOrOptions && typeof routerOrOptions.decide === 'function') {
    o.router = routerOrOptions
  } else if (routerOrOptions && typeof routerOrOptions === 'object') {
    Object.assign(o, routerOrOptions)
  }
  return o
}

module.exports = {
  Engine,
  agenthooks,
  answerOf,
  defaultLog,
  engineOptions,
  isSecretKey,
  sanitize,
  withTimeout,
}
