// Test helpers: the Rust example guard (for bridge tests) and a fake
// OpenCode SDK client recording what the plugin asks of it.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')
const guard = process.env.AH_GUARD ?? path.join(REPO, 'target/debug/guard')
/** The Rust example guard, when built. */
export const GUARD = fs.existsSync(guard) ? guard : null
export { REPO }

/**
 * A fake OpenCode client: `_client.post` (the current permission route),
 * `postSessionIdPermissionsPermissionId` (the deprecated one),
 * `session.messages`, `session.promptAsync`, `config.get`.
 */
export function fakeClient({ newRoute = true, lastText = '', mcp = undefined } = {}) {
  const calls = { replies: [], deprecated: [], prompts: [] }
  return {
    calls,
    _client: {
      async post(req) {
        if (!newRoute) return { response: { status: 404 } }
        calls.replies.push({ requestID: req.path.requestID, body: req.body })
        return { data: true, response: { status: 200 } }
      },
    },
    async postSessionIdPermissionsPermissionId(req) {
      calls.deprecated.push(req)
      return { data: true }
    },
    session: {
      async messages() {
        return {
          data: [
            { info: { role: 'user' }, parts: [{ type: 'text', text: 'hi' }] },
            { info: { role: 'assistant' }, parts: [{ type: 'step-start' }, { type: 'text', text: lastText }] },
          ],
        }
      },
      async promptAsync(req) {
        calls.prompts.push(req)
        return { data: {} }
      },
    },
    config: {
      async get() {
        return { data: mcp ? { mcp } : {} }
      },
    },
  }
}

/** A fake OpenClaw plugin API recording registrations. */
export function fakeApi(extra = {}) {
  const handlers = new Map()
  const options = new Map()
  return {
    handlers,
    options,
    registrationMode: 'full',
    logger: { warn: () => {} },
    on(name, handler, opts) {
      handlers.set(name, handler)
      options.set(name, opts)
    },
    ...extra,
  }
}
