'use strict'
// agenthooks for OpenClaw: a native plugin whose typed hooks reach a router
// in-process, or a hook program in any language over
// `<program> agenthooks serve --provider=openclaw`.
//
//   // index.js of a plugin package (openclaw.plugin.json + package.json
//   // with "openclaw": {"extensions": ["./index.js"]}; see
//   // plugins/openclaw-package/ for a ready one)
//   import { openclaw } from 'agenthooks/openclaw'
//   import router from './router.mjs'
//   export default openclaw(router, { id: 'my-guard' })
//   // export default openclaw({ command: ['/path/guard'] }, { id: 'my-guard' })
//
// Each hook call becomes one frame (the payload of the core's OpenClaw
// dialect: {hook, event, ctx, plugin}, the context stripped of functions,
// signals, the Gateway `config` and credential fields); the answer is the
// handler's return value ({block, blockReason}, {params},
// {requireApproval}, {outcome: "block", reason}, {action: "revise", ...})
// or nothing. Gating hooks wait under a plugin-owned deadline (the fail
// policy answers on timeout); observe hooks are fire-and-forget. Wire
// facts: docs/protocols/openclaw.md; formats: docs/canonical-json.md.

const { Engine, answerOf, defaultLog, engineOptions, sanitize } = require('./common.js')

/** Hooks whose return value OpenClaw reads (awaited under the deadline). */
const GATING = new Set([
  'before_tool_call',
  'before_agent_run',
  'before_agent_finalize',
  'before_prompt_build',
  'before_model_resolve',
  'agent_turn_prepare',
  'before_agent_reply',
  'heartbeat_prompt_contribution',
  'resolve_exec_env',
  'subagent_spawning',
  'subagent_delivery_target',
  'message_sending',
  'reply_payload_sending',
  'inbound_claim',
  'before_dispatch',
  'reply_dispatch',
  'before_install',
  'skill_proposal_evaluate',
])

/** Hooks registered by default (more through `options.hooks`). */
const DEFAULT_HOOKS = [
  'before_tool_call',
  'after_tool_call',
  'before_agent_run',
  'before_agent_finalize',
  'agent_end',
  'llm_output',
  'session_start',
  'session_end',
  'before_compaction',
  'after_compaction',
  'subagent_spawned',
  'subagent_ended',
]

/** Synchronous hooks: an async handler cannot answer them (not forwarded). */
const SYNC_HOOKS = new Set(['tool_result_persist', 'before_message_write'])

/** Context keys never forwarded: the Gateway config holds every secret (quirk 10). */
const CTX_DROP = ['config', 'abortSignal', 'hookInvocation', 'getCron', 'getSessionExtension']

/** How long agent_end waits for the run's llm_output (2026.9.6 sends it after). */
const LLM_OUTPUT_WAIT_MS = 1500
/** How long a before_tool_call answer is reused for the same toolCallId (quirk 5). */
const DEDUPE_MS = 60000

/**
 * The OpenClaw plugin entry for a router (in-process) or a hook program
 * (`{command: [program, ...args]}`: the bridge): `{id, name, description,
 * register(api)}`. Options: `id` (default `agenthooks`), `name`,
 * `timeoutMs` (deadline of gating hooks; default the policy's timeout_ms,
 * else 10 s: OpenClaw's own 15 s budget fails closed with a generic error,
 * so ours must answer first; the handlers are registered with a budget 2 s
 * above it), `fail`, `hooks` (extra hooks to forward), `log`, `env`/`cwd`
 * (bridge).
 */
function openclaw(routerOrOptions, options) {
  const opts = engineOptions(routerOrOptions, options)
  const id = opts.id ?? 'agenthooks'
  let shared = null
  const registered = new WeakSet()
  const state = (api) => {
    if (!shared) {
      const log = opts.log ?? (api && api.logger && typeof api.logger.warn === 'function'
        ? (l) => api.logger.warn(l)
        : defaultLog)
      const engine = new Engine({ ...opts, provider: 'openclaw', log, defaultTimeoutMs: 10000, hostVersions: { openclaw: '' } })
      shared = new ClawState(engine, log, opts)
    }
    return shared
  }
  return {
    id,
    name: opts.name ?? 'agenthooks',
    description: opts.description ?? 'Coding-agent hooks through agenthooks',
    // OpenClaw calls register more than once per process ("full" and
    // "discovery" modes): idempotent per api object; one engine for all.
    register(api) {
      if (!api || typeof api.on !== 'function' || registered.has(api)) return
      registered.add(api)
      const s = state(api)
      // OpenClaw's own version (api.version is the plugin's), for quirk 8;
      // the runtime throws in metadata-only registration modes.
      if (!s.version) {
        try {
          const v = api.runtime && api.runtime.version
          if (typeof v === 'string' && v !== '') s.version = v
        } catch {
          // not available in this registration mode
        }
      }
      const names = [...DEFAULT_HOOKS, ...(opts.hooks ?? []).filter((h) => !DEFAULT_HOOKS.includes(h) && !SYNC_HOOKS.has(h))]
      const budget = s.engine.deadlineMs() + 2000
      for (const name of names) {
        const handler = (event, ctx) => s.handle(name, event, ctx)
        if (GATING.has(name)) api.on(name, handler, { timeoutMs: budget })
        else api.on(name, handler)
      }
    },
  }
}

class ClawState {
  constructor(engine, log, opts) {
    this.engine = engine
    this.log = log
    this.opts = opts
    this.version = undefined
    this.sessions = new Map() // session key -> {workspace_dir, model_provider_id, model_id}
    this.llmOutputs = new Map() // runId -> llm_output event
    this.llmWaiters = new Map() // runId -> resolve
    this.recentCalls = new Map() // toolCallId -> {at, promise}
    this.revisions = new Map() // runId -> revisions we asked for
  }

  // Tool contexts lack workspaceDir and the model (quirk 11): remember them
  // per session from the hooks whose context has them.
  remember(ctx) {
    if (!ctx || typeof ctx !== 'object') return
    const key = ctx.sessionId ?? ctx.sessionKey
    if (typeof key !== 'string') return
    const s = this.sessions.get(key) ?? {}
    if (typeof ctx.workspaceDir === 'string') s.workspace_dir = ctx.workspaceDir
    if (typeof ctx.modelProviderId === 'string') s.model_provider_id = ctx.modelProviderId
    if (typeof ctx.modelId === 'string') s.model_id = ctx.modelId
    this.sessions.set(key, s)
    if (typeof ctx.sessionKey === 'string' && ctx.sessionKey !== key) this.sessions.set(ctx.sessionKey, s)
  }

  facts(name, event, ctx) {
    const p = {}
    if (this.version) p.version = this.version
    const key = ctx && (ctx.sessionId ?? ctx.sessionKey)
    const known = typeof key === 'string' ? this.sessions.get(key) : undefined
    if (known) Object.assign(p, known)
    if (name === 'before_agent_finalize') {
      p.loop_count = this.revisions.get(runIdOf(event, ctx)) ?? 0
    }
    return p
  }

  frame(name, event, ctx) {
    let ev = sanitize(event) ?? {}
    // llm_input's tools are live objects with execute functions: names only.
    if (name === 'llm_input' && Array.isArray(event && event.tools)) {
      ev = { ...ev, tools: event.tools.map((t) => (t && typeof t.name === 'string' ? t.name : null)) }
    }
    return {
      hook: name,
      event: ev,
      ctx: sanitize(ctx, { dropKeys: CTX_DROP }) ?? {},
      plugin: this.facts(name, event, ctx),
    }
  }

  handle(name, event, ctx) {
    this.remember(ctx)
    if (name === 'llm_output') {
      const run = runIdOf(event, ctx)
      this.llmOutputs.set(run, sanitize(event))
      // Outputs no agent_end came for (a claim skipped it, quirk 20): bounded.
      while (this.llmOutputs.size > 64) this.llmOutputs.delete(this.llmOutputs.keys().next().value)
      const wake = this.llmWaiters.get(run)
      if (wake) wake()
    }
    if (!GATING.has(name)) {
      // Observe hooks: OpenClaw ignores the result; do not hold it up.
      this.observe(name, event, ctx).catch((e) => this.log(`agenthooks: ${name}: ${e.message}`))
      return undefined
    }
    if (name === 'before_tool_call') return this.gateTool(event, ctx)
    return this.gate(name, event, ctx)
  }

  async gate(name, event, ctx) {
    const resp = await this.engine.dispatch(this.frame(name, event, ctx))
    if (resp.stderr) this.log(resp.stderr.trimEnd())
    let out = null
    try {
      out = answerOf(resp)
    } catch (e) {
      this.log(`agenthooks: ${name}: unreadable answer: ${e.message}`)
    }
    if (name === 'before_agent_finalize' && out && out.action === 'revise') {
      const run = runIdOf(event, ctx)
      this.revisions.set(run, (this.revisions.get(run) ?? 0) + 1)
    }
    // Nothing is "no opinion"; never {} (before_agent_run fails closed on it).
    return out && Object.keys(out).length ? out : undefined
  }

  // before_tool_call fired two or three times for one call on some versions
  // (quirk 5): the same toolCallId gets the same answer, computed once.
  gateTool(event, ctx) {
    const id = (event && event.toolCallId) ?? (ctx && ctx.toolCallId)
    const now = Date.now()
    for (const [k, v] of this.recentCalls) {
      if (now - v.at > DEDUPE_MS) this.recentCalls.delete(k)
    }
    if (typeof id === 'string' && id !== '') {
      const hit = this.recentCalls.get(id)
      if (hit) return hit.promise
      const promise = this.gate('before_tool_call', event, ctx)
      this.recentCalls.set(id, { at: now, promise })
      return promise
    }
    return this.gate('before_tool_call', event, ctx)
  }

  async observe(name, event, ctx) {
    const frame = this.frame(name, event, ctx)
    if (name === 'agent_end') {
      // The final text and usage live in llm_output, which 2026.9.6 fires
      // after agent_end (quirk 12): wait briefly for it, then splice it in.
      const run = runIdOf(event, ctx)
      if (!this.llmOutputs.has(run)) {
        await new Promise((resolve) => {
          const t = setTimeout(resolve, LLM_OUTPUT_WAIT_MS)
          if (typeof t.unref === 'function') t.unref()
          this.llmWaiters.set(run, () => {
            clearTimeout(t)
            resolve()
          })
        })
        this.llmWaiters.delete(run)
      }
      const llm = this.llmOutputs.get(run)
      if (llm) frame.plugin.llm_output = llm
      this.llmOutputs.delete(run)
      this.revisions.delete(run)
    }
    const resp = await this.engine.dispatch(frame)
    if (resp.stderr) this.log(resp.stderr.trimEnd())
  }
}

function runIdOf(event, ctx) {
  return (event && event.runId) ?? (ctx && ctx.runId) ?? ''
}

module.exports = { openclaw, DEFAULT_HOOKS, GATING, SYNC_HOOKS, CTX_DROP }
