// The agenthooks OpenClaw plugin, ready to load: point OpenClaw at this
// directory (`plugins.load.paths`, or `openclaw plugins install <dir>`),
// allow and enable it, and say what runs the hooks in
// `plugins.entries.agenthooks.config`:
//   {"router": "/abs/path/router.mjs"}      a Router module, in-process
//   {"command": ["/abs/path/guard"]}        any agenthooks program, bridged
// plus optional `fail` ("open" | "closed"), `timeoutMs`, `hooks`. Conversation
// hooks also need `plugins.entries.agenthooks.hooks.allowConversationAccess: true`.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)
const { openclaw } = require('../openclaw.js')

const ID = 'agenthooks'
const GATES = Symbol.for('agenthooks.gates')
let entry = null

// A router module loaded on first use: register() must stay synchronous.
function lazyRouter(path) {
  let loaded = null
  let loading = null
  const load = () => {
    loading ??= import(path.startsWith('file:') ? path : pathToFileURL(path).href).then((m) => {
      const r = m.default?.decide ? m.default : m.router ?? m.default?.router
      if (!r || typeof r.decide !== 'function') throw new Error(`${path} exports no agenthooks Router (default or \`router\`)`)
      loaded = r
      return r
    })
    return loading
  }
  return {
    async decide(event) {
      return (await load()).decide(event)
    },
    get policy() {
      return loaded ? loaded.policy : {}
    },
    // For the failsafe (the addon cannot load): the router's policy and
    // what it could gate (lib/failsafe.js).
    ready: () => load(),
    [GATES](event) {
      const f = loaded && loaded[GATES]
      return typeof f === 'function' ? f.call(loaded, event) : true
    },
  }
}

function build(cfg) {
  const options = { id: ID, fail: cfg.fail, timeoutMs: cfg.timeoutMs, hooks: cfg.hooks }
  if (cfg.command) return openclaw({ command: cfg.command }, options)
  if (typeof cfg.router === 'string' && cfg.router !== '') return openclaw(lazyRouter(cfg.router), options)
  return null
}

export default {
  id: ID,
  name: 'agenthooks',
  description: 'Coding-agent hooks through agenthooks',
  register(api) {
    if (!entry) {
      entry = build(api?.pluginConfig ?? {})
      if (!entry) {
        api?.logger?.warn?.('agenthooks: set plugins.entries.agenthooks.config.router or .command; no hooks registered')
        return
      }
    }
    entry.register(api)
  },
}
