'use strict'
// The plugin side of `<program> agenthooks serve --provider=<p>`: spawns
// the hook program once, sends a hello, then one JSON frame per line with
// a sequence number, and matches replies (which may come in any order) by
// `seq`. Protocol: core/src/serve.rs, ARCHITECTURE.md "Bindings".
//
// What a reply means is the Engine's (common.js): an error reply, or one
// without `output`, gets the fail policy's answer. A reply whose `seq` is
// null (or matches nothing pending) cannot be tied to a request: it is
// logged, and the request it may have belonged to is answered by the
// plugin's deadline (the fail policy again). A reply line longer than
// MAX_REPLY_CHARS is dropped the same way instead of being buffered.

const { spawn } = require('node:child_process')

/** How soon a program that exited is started again. */
const RESTART_MS = 1000

/** The longest reply line kept (characters; the program's frame limit is 64 MiB). */
const MAX_REPLY_CHARS = 64 * 1024 * 1024

/** An error of the bridge itself (the program is gone or unreachable). */
class BridgeError extends Error {
  constructor(message, code = 'io') {
    super(message)
    this.name = 'BridgeError'
    this.code = code
  }
}

class Bridge {
  /**
   * options: `provider`, `command` (string or argv array; the program and
   * its leading arguments), `timeoutMs` (passed as `--timeout`), `env`,
   * `cwd`, `log`, `hello` (the hello frame's content).
   */
  constructor(options) {
    const argv = Array.isArray(options.command) ? options.command.slice() : [options.command]
    if (!argv.length || typeof argv[0] !== 'string' || argv[0] === '') {
      throw new TypeError('agenthooks bridge: `command` must name a program')
    }
    this.program = argv[0]
    this.args = argv.slice(1)
    this.provider = options.provider
    this.timeoutMs = options.timeoutMs
    this.env = options.env
    this.cwd = options.cwd
    this.log = options.log ?? ((l) => process.stderr.write(`${l}\n`))
    this.helloFrame = options.hello ?? { provider: options.provider }
    this.seq = 0
    this.pending = new Map()
    this.child = null
    this.buffer = ''
    this.skipping = false
    /** The program's policy, from its hello reply. */
    this.policy = null
    this.deadlineMs = null
    this.closed = false
    this.diedAt = 0
  }

  #start() {
    const args = [...this.args, 'agenthooks', 'serve', `--provider=${this.provider}`]
    if (typeof this.timeoutMs === 'number' && this.timeoutMs > 0) {
      args.push(`--timeout=${this.timeoutMs / 1000}`)
    }
    const child = spawn(this.program, args, {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: this.env ? { ...process.env, ...this.env } : process.env,
      cwd: this.cwd,
      windowsHide: true,
    })
    this.child = child
    this.buffer = ''
    this.skipping = false
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk) => this.#onData(chunk))
    child.stdin.on('error', () => {}) // EPIPE when the program died: handled on exit
    child.on('error', (e) => this.#onExit(child, `cannot run ${this.program}: ${e.message}`))
    child.on('exit', (code, signal) => this.#onExit(child, `${this.program} exited (${signal ?? code})`))
    // Do not keep the host alive for the bridge alone.
    if (typeof child.unref === 'function') child.unref()
    for (const s of [child.stdin, child.stdout]) {
      if (s && typeof s.unref === 'function') s.unref()
    }
    this.#write({ hello: this.helloFrame })
  }

  #write(frame) {
    try {
      this.child.stdin.write(`${JSON.stringify(frame)}\n`)
    } catch (e) {
      this.#onExit(this.child, `writing to ${this.program} failed: ${e.message}`)
    }
  }

  // Reply lines: only the new chunk is searched for newlines (a long reply
  // arriving in many chunks costs linear time), and a partial line longer
  // than MAX_REPLY_CHARS is dropped with the rest of its line.
  #onData(chunk) {
    let start = 0
    let nl = chunk.indexOf('\n')
    if (this.skipping) {
      if (nl < 0) return
      this.skipping = false
      start = nl + 1
      nl = chunk.indexOf('\n', start)
    }
    while (nl >= 0) {
      const line = (this.buffer + chunk.slice(start, nl)).trim()
      this.buffer = ''
      if (line !== '') this.#onLine(line)
      start = nl + 1
      nl = chunk.indexOf('\n', start)
    }
    const rest = chunk.slice(start)
    if (this.buffer.length + rest.length > MAX_REPLY_CHARS) {
      this.log(`agenthooks: bridge: dropped a reply line longer than ${MAX_REPLY_CHARS} characters`)
      this.buffer = ''
      this.skipping = true
      return
    }
    this.buffer += rest
  }

  #onLine(line) {
    let msg
    try {
      msg = JSON.parse(line)
    } catch {
      this.log(`agenthooks: the bridge printed a line that is not JSON: ${line.slice(0, 200)}`)
      return
    }
    if (msg && msg.hello) {
      this.policy = msg.hello.policy ?? null
      this.deadlineMs = msg.hello.deadline_ms ?? null
      return
    }
    const p = msg && msg.seq !== undefined && msg.seq !== null ? this.pending.get(msg.seq) : undefined
    if (p) {
      this.pending.delete(msg.seq)
      p.resolve(msg)
    } else if (msg && msg.error) {
      // Not tied to a pending request (seq null): only logged; that
      // request, if any, gets the fail policy at the plugin's deadline.
      this.log(`agenthooks: bridge: ${msg.error.code}: ${msg.error.message ?? ''}`.trimEnd())
    }
  }

  #onExit(child, why) {
    if (this.child !== child) return
    this.child = null
    const err = new BridgeError(why)
    for (const p of this.pending.values()) p.reject(err)
    this.pending.clear()
    this.diedAt = Date.now()
    if (!this.closed) this.log(`agenthooks: bridge: ${why}`)
  }

  /**
   * Sends one frame; resolves to the reply `{seq, output, notes?, error?}`.
   * With `timeoutMs`, rejects (code `handler_timeout`) when no reply came
   * in time and forgets the request: a reply that never comes (seq null,
   * dropped) holds neither memory nor the host.
   */
  request(frame, timeoutMs) {
    if (this.closed) return Promise.reject(new BridgeError('the bridge is closed'))
    if (!this.child) {
      // A program that keeps dying is not restarted for every event.
      if (this.diedAt && Date.now() - this.diedAt < RESTART_MS) {
        return Promise.reject(new BridgeError(`${this.program} exited less than ${RESTART_MS} ms ago`))
      }
      this.#start()
    }
    if (!this.child) return Promise.reject(new BridgeError(`cannot run ${this.program}`))
    const seq = ++this.seq
    let timer
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject })
      this.#hold(true)
      this.#write({ seq, ...frame })
      if (typeof timeoutMs === 'number' && timeoutMs >= 0) {
        timer = setTimeout(
          () => reject(new BridgeError(`the bridge did not answer within ${timeoutMs} ms`, 'handler_timeout')),
          timeoutMs,
        )
        if (typeof timer.unref === 'function') timer.unref()
      }
    }).finally(() => {
      clearTimeout(timer)
      this.pending.delete(seq)
      if (this.pending.size === 0) this.#hold(false)
    })
  }

  // The bridge never keeps the host alive when idle, but a request in
  // flight must: otherwise a host with nothing else to do exits mid-answer.
  #hold(on) {
    const s = this.child && this.child.stdout
    if (!s) return
    const f = on ? s.ref : s.unref
    if (typeof f === 'function') f.call(s)
  }

  /** Ends the program (its stdin closes; it finishes pending work and exits). */
  close() {
    this.closed = true
    if (this.child) {
      try {
        this.child.stdin.end()
      } catch {
        // already gone
      }
    }
  }
}

module.exports = { Bridge, BridgeError, MAX_REPLY_CHARS }
