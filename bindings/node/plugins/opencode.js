'use strict'
// agenthooks for OpenCode: one plugin file and OpenCode's hooks reach a
// router in-process, or a hook program in any language over
// `<program> agenthooks serve --provider=opencode`.
//
//   // .opencode/plugin/agenthooks.js
//   import { opencode } from 'agenthooks/opencode'
//   import router from './router.mjs'
//   export default opencode(router)                       // in-process
//   // export default opencode({ command: ['/path/guard'] }) // bridge
//
// Each named-hook call and bus event becomes one frame (the payload of the
// core's OpenCode dialect: {hook, input, output, plugin}); the answer is an
// action object the plugin applies to the live objects: `args` (rewrite
// output.args IN PLACE: OpenCode ignores a reassignment), `set`, `append`,
// `push`, `reply` (permission.asked, through OpenCode's API), `prompt` (a
// new prompt: continue after session.idle), `throw` (blocks a tool or a
// prompt). Wire facts: docs/protocols/opencode.md; the frame and action
// formats: docs/canonical-json.md.

const { Engine, answerOf, defaultLog, engineOptions, sanitize, withTimeout } = require('./common.js')

/** Named hooks registered by default (more through `options.hooks`). */
const DEFAULT_HOOKS = [
  'tool.execute.before',
  'tool.execute.after',
  'chat.message',
  'chat.params',
  'permission.ask',
  'experimental.session.compacting',
  'experimental.text.complete',
]

/** Named hooks this plugin can forward (opencode.md §2.1). */
const KNOWN_HOOKS = new Set([
  ...DEFAULT_HOOKS,
  'chat.headers',
  'command.execute.before',
  'shell.env',
  'tool.definition',
  'experimental.chat.messages.transform',
  'experimental.chat.system.transform',
  'experimental.compaction.autocontinue',
  'experimental.provider.small_model',
])

// ------------------------------------------------------------ paths

function segments(path) {
  return String(path).split('.').filter((s) => s !== '')
}

function getPath(obj, path) {
  let cur = obj
  for (const s of segments(path)) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = cur[s]
  }
  return cur
}

// Assigns into the live object, creating missing containers; never
// replaces an existing container on the way.
function setPath(obj, path, value) {
  const segs = segments(path)
  if (!segs.length || obj === null || typeof obj !== 'object') return
  let cur = obj
  for (let i = 0; i < segs.length - 1; i++) {
    const s = segs[i]
    if (cur[s] === null || typeof cur[s] !== 'object') cur[s] = /^\d+$/.test(segs[i + 1]) ? [] : {}
    cur = cur[s]
  }
  cur[segs[segs.length - 1]] = value
}

/** Makes `target` equal `next` without replacing it (quirk 4). */
function replaceInPlace(target, next) {
  for (const k of Object.keys(target)) {
    if (!Object.prototype.hasOwnProperty.call(next, k)) delete target[k]
  }
  Object.assign(target, next)
}

let idCounter = 0
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** An ascending id in OpenCode's format (`prt_` + 12 hex + 14 base62). */
function ascendingId(prefix) {
  const n = BigInt(Date.now()) * 0x1000n + BigInt(++idCounter & 0xfff)
  let rand = ''
  for (let i = 0; i < 14; i++) rand += B62[Math.floor(Math.random() * 62)]
  return `${prefix}_${n.toString(16).padStart(12, '0').slice(-12)}${rand}`
}

// ------------------------------------------------------------ the plugin

/**
 * The OpenCode plugin for a router (in-process) or a hook program
 * (`{command: [program, ...args]}`: the bridge). Options: `timeoutMs`
 * (handler deadline; OpenCode has none of its own, default the policy's
 * timeout_ms, else 30 s), `fail` (`open` | `closed`, overrides the
 * policy's), `hooks` (extra named hooks to forward, e.g. `chat.headers`,
 * `shell.env`), `allEvents` (forward every bus event, streaming ones
 * included), `log` (diagnostics; default stderr), `env`/`cwd` (bridge).
 * Returns an OpenCode plugin: `async (ctx) => hooks`.
 */
function opencode(routerOrOptions, options) {
  const opts = engineOptions(routerOrOptions, options)
  const log = opts.log ?? defaultLog
  const hookNames = [...DEFAULT_HOOKS, ...(opts.hooks ?? []).filter((h) => KNOWN_HOOKS.has(h) && !DEFAULT_HOOKS.includes(h))]

  return async function agenthooksOpencode(ctx) {
    const engine = new Engine({ ...opts, provider: 'opencode', log, defaultTimeoutMs: 30000, hostVersions: { opencode: '' } })
    if (engine.notice) logToOpencode(ctx, engine.notice)
    const state = new PluginState(ctx, engine, log, opts)
    const hooks = {}
    for (const name of hookNames) {
      hooks[name] = (input, output) => state.named(name, input, output)
    }
    hooks.event = ({ event }) => state.bus(event)
    return hooks
  }
}

// A line in OpenCode's own log (`client.app.log`), fire-and-forget: a call
// through the client during plugin init must not be awaited.
function logToOpencode(ctx, message) {
  const app = ctx && ctx.client && ctx.client.app
  if (!app || typeof app.log !== 'function') return
  try {
    Promise.resolve(app.log({ body: { service: 'agenthooks', level: 'error', message } })).catch(() => {})
  } catch {
    // no log route in this OpenCode: stderr has the line
  }
}

class PluginState {
  constructor(ctx, engine, log, opts) {
    this.ctx = ctx ?? {}
    this.client = this.ctx.client
    this.engine = engine
    this.log = log
    this.opts = opts
    this.mcp = undefined // the mcp config map, read on first use
    this.parents = new Map() // child session id -> parent session id
    this.loops = new Map() // session id -> continuations sent in a row
    this.ownPrompt = new Set() // sessions whose next chat.message is our continuation
    this.erroredCalls = new Set() // callIDs whose error part was forwarded
    this.version = undefined
  }

  async pluginFacts(sessionID) {
    const p = {}
    if (this.ctx.directory) p.directory = String(this.ctx.directory)
    if (this.ctx.worktree) p.worktree = String(this.ctx.worktree)
    if (this.version) p.version = this.version
    const mcp = await this.mcpServers()
    if (mcp) p.mcp = mcp
    const parent = sessionID ? this.parents.get(sessionID) : undefined
    if (parent) p.parent_session_id = parent
    return p
  }

  // The configured MCP servers, for attributing `<server>_<tool>` names
  // (§3.3): read once through the client (not during plugin init, where
  // the call would wait for the plugins themselves), credentials dropped.
  async mcpServers() {
    if (this.mcp !== undefined) return this.mcp
    this.mcp = null
    if (!this.client || !this.client.config || typeof this.client.config.get !== 'function') return null
    try {
      const r = await withTimeout(Promise.resolve(this.client.config.get()), 2000, 'config.get')
      const map = r && r.data && r.data.mcp
      if (map && typeof map === 'object') {
        const out = {}
        for (const [name, cfg] of Object.entries(map)) {
          const c = cfg && typeof cfg === 'object' ? cfg : {}
          out[name] = sanitize({ type: c.type, command: c.command, url: c.url, enabled: c.enabled })
        }
        this.mcp = out
      }
    } catch (e) {
      this.log(`agenthooks: opencode: reading the mcp config failed: ${e.message}`)
    }
    return this.mcp
  }

  async named(name, input, output) {
    const sessionID = input && typeof input.sessionID === 'string' ? input.sessionID : undefined
    if (name === 'chat.message' && sessionID) {
      // A user prompt resets the continuation count; ours does not.
      if (this.ownPrompt.has(sessionID)) this.ownPrompt.delete(sessionID)
      else this.loops.delete(sessionID)
    }
    const frame = {
      hook: name,
      input: sanitize(input) ?? {},
      output: name === 'tool.definition' ? sanitize({ description: output && output.description }) : sanitize(output) ?? null,
      plugin: await this.pluginFacts(sessionID),
    }
    const resp = await this.engine.dispatch(frame)
    if (resp.stderr) this.log(resp.stderr.trimEnd())
    let action
    try {
      action = answerOf(resp)
    } catch (e) {
      this.log(`agenthooks: ${name}: unreadable answer: ${e.message}`)
      return
    }
    if (action) await this.apply(name, action, output)
  }

  async bus(event) {
    try {
      await this.#bus(event)
    } catch (e) {
      // Bus events are fire-and-forget: nothing to block, only to report.
      this.log(`agenthooks: ${event && event.type}: ${e && e.message ? e.message : e}`)
    }
  }

  async #bus(event) {
    if (!event || typeof event.type !== 'string') return
    const props = event.properties ?? {}
    const type = event.type
    if (type === 'session.created' || type === 'session.updated') {
      const info = props.info ?? {}
      if (typeof info.version === 'string') this.version = info.version
      if (typeof info.parentID === 'string' && typeof info.id === 'string') this.parents.set(info.id, info.parentID)
    }
    if (!this.opts.allEvents) {
      if (type === 'message.part.delta') return
      if (type === 'message.part.updated') {
        // Only failed tool parts (tool.error, quirk 2), once per call:
        // the rest streams constantly.
        const part = props.part ?? {}
        if (part.type !== 'tool' || !part.state || part.state.status !== 'error') return
        const key = `${part.sessionID}|${part.callID}`
        if (this.erroredCalls.has(key)) return
        this.erroredCalls.add(key)
      }
    }
    const sessionID = typeof props.sessionID === 'string' ? props.sessionID : undefined
    const plugin = await this.pluginFacts(sessionID)
    if (type === 'session.idle' && sessionID) {
      plugin.loop_count = this.loops.get(sessionID) ?? 0
      const text = await this.finalMessage(sessionID)
      if (text) plugin.final_message = text
    }
    const frame = { hook: type, input: sanitize(props) ?? {}, plugin }
    const resp = await this.engine.dispatch(frame)
    if (resp.stderr) this.log(resp.stderr.trimEnd())
    const action = answerOf(resp)
    if (action) await this.apply(type, action, null)
  }

  // The last assistant message's text (quirk 21: no event carries it).
  async finalMessage(sessionID) {
    const s = this.client && this.client.session
    if (!s || typeof s.messages !== 'function') return undefined
    try {
      const r = await withTimeout(Promise.resolve(s.messages({ path: { id: sessionID } })), 2000, 'session.messages')
      const list = Array.isArray(r && r.data) ? r.data : []
      for (let i = list.length - 1; i >= 0; i--) {
        const m = list[i]
        if (!m || !m.info || m.info.role !== 'assistant') continue
        const text = (m.parts ?? [])
          .filter((p) => p && p.type === 'text' && !p.synthetic && typeof p.text === 'string')
          .map((p) => p.text)
          .join('')
        if (text) return text
      }
    } catch (e) {
      this.log(`agenthooks: reading the last message failed: ${e.message}`)
    }
    return undefined
  }

  async apply(name, action, output) {
    if (output && typeof output === 'object') {
      if (action.args && typeof action.args === 'object' && output.args && typeof output.args === 'object') {
        replaceInPlace(output.args, action.args)
      }
      for (const [path, value] of Object.entries(action.set ?? {})) setPath(output, path, value)
      for (const [path, text] of Object.entries(action.append ?? {})) {
        const cur = getPath(output, path)
        setPath(output, path, (typeof cur === 'string' ? cur : '') + String(text))
      }
      for (const [path, items] of Object.entries(action.push ?? {})) {
        let arr = getPath(output, path)
        if (!Array.isArray(arr)) {
          arr = []
          setPath(output, path, arr)
        }
        for (const item of Array.isArray(items) ? items : [items]) {
          arr.push(name === 'chat.message' && path === 'parts' ? this.fillPart(item, output) : item)
        }
      }
    }
    if (action.reply) await this.reply(action.reply)
    if (action.prompt) await this.prompt(action.prompt)
    if (typeof action.throw === 'string') throw new Error(action.throw)
  }

  // A pushed prompt part gets the ids OpenCode's own parts carry.
  fillPart(item, output) {
    if (!item || typeof item !== 'object') return item
    const msg = output.message ?? {}
    return {
      id: ascendingId('prt'),
      sessionID: msg.sessionID,
      messageID: msg.id,
      ...item,
    }
  }

  // Answers a permission request (§4.4): the current route
  // (`/permission/{id}/reply`, which takes a message) through the client's
  // raw HTTP client, else the deprecated one (verified on 1.18.33).
  async reply(r) {
    const c = this.client
    if (!c || !r || !r.requestID) return
    const body = { reply: r.reply }
    if (r.message) body.message = r.message
    const raw = c._client
    if (raw && typeof raw.post === 'function') {
      try {
        const res = await raw.post({
          url: '/permission/{requestID}/reply',
          path: { requestID: r.requestID },
          body,
          headers: { 'Content-Type': 'application/json' },
        })
        const status = res && res.response ? res.response.status : 0
        if (status >= 200 && status < 300) return
      } catch {
        // fall through to the deprecated route
      }
    }
    if (typeof c.postSessionIdPermissionsPermissionId === 'function') {
      await c.postSessionIdPermissionsPermissionId({
        path: { id: r.sessionID, permissionID: r.requestID },
        body: { response: r.reply },
      })
      return
    }
    this.log('agenthooks: this OpenCode client has no permission reply route')
  }

  // Continues a session with a new prompt (§4.5, §5); the continuation
  // count grows until a user prompt arrives.
  async prompt(p) {
    const s = this.client && this.client.session
    if (!s || !p || !p.sessionID) return
    this.loops.set(p.sessionID, (this.loops.get(p.sessionID) ?? 0) + 1)
    this.ownPrompt.add(p.sessionID)
    const call = typeof s.promptAsync === 'function' ? s.promptAsync.bind(s) : s.prompt.bind(s)
    await call({ path: { id: p.sessionID }, body: { parts: [{ type: 'text', text: String(p.text) }] } })
  }
}

module.exports = { opencode, DEFAULT_HOOKS, KNOWN_HOOKS, replaceInPlace, setPath, getPath }
