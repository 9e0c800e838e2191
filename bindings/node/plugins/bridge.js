'use strict'
// The plugin side of `<program> agenthooks serve --provider=<p>`: spawns
// the hook program once, sends a hello, then one JSON frame per line with
// a sequence number, and matches replies (which may come in any order) by
// `seq`. Protocol: core/src/serve.rs, ARCHITECTURE.md "Bindings".

const { spawn } = require('node:child_process')

/** How soon a program that exited is started again. */
const RESTART_MS = 1000

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

  #onData(chunk) {
    this.buffer += chunk
    let nl
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).trim()
      this.buffer = this.buffer.slice(nl + 1)
      if (line === '') continue
      let msg
      try {
        msg = JSON.parse(line)
      } catch {
        this.log(`agenthooks: the bridge printed a line that is not JSON: ${line.slice(0, 200)}`)
        continue
      }
      if (msg && msg.hello) {
        this.policy = msg.hello.policy ?? null
        this.deadlineMs = msg.hello.deadline_ms ?? null
        continue
      }
      const p = msg && msg.seq !== undefined && msg.seq !== null ? this.pending.get(msg.seq) : undefined
      if (p) {
        this.pending.delete(msg.seq)
        p.resolve(msg)
      } else if (msg && msg.error) {
        this.log(`agenthooks: bridge: ${msg.error.code}: ${msg.error.message ?? ''}`.trimEnd())
      }
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

  /** Sends one frame; resolves to the reply `{seq, output?, notes?, error?}`. */
  request(frame) {
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
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject })
      this.#hold(true)
      this.#write({ seq, ...frame })
    }).finally(() => {
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

module.exports = { Bridge, BridgeError }
