// Typed usage of the plugin entry points, checked by `tsc --strict`.
import { Decision, Router } from '../../../lib/index.js'
import { opencode, type OpencodePlugin } from '../../opencode.mjs'
import { openclaw, type OpenclawPluginEntry } from '../../openclaw.mjs'

const router = new Router({ policy: { fail: 'closed' } })
router.onToolPre((e) => (e.tool.command?.includes('rm -rf') ? Decision.deny('destructive command') : undefined))

export const inProcess: OpencodePlugin = opencode(router, { timeoutMs: 5000, hooks: ['shell.env'], allEvents: false })
export const bridged: OpencodePlugin = opencode({ command: ['/usr/local/bin/guard'], fail: 'closed' })

export const claw: OpenclawPluginEntry = openclaw(router, { id: 'my-guard', timeoutMs: 8000 })
export const clawBridge: OpenclawPluginEntry = openclaw({ command: '/usr/local/bin/guard', env: { RUST_LOG: 'info' } }, { id: 'g' })
claw.register({ on: (_name, _handler, _opts) => {} })
