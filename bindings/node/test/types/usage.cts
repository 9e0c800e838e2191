// Typed usage of the CommonJS entry point (require), checked by tsc.
import ah = require('agenthooks')

const r = new ah.Router()
r.onToolPre((e) => (e.tool.command === 'ls' ? ah.Decision.allow() : undefined))
const d: Promise<ah.Decision> = r.decide(ah.decode('claude-code', '{}', { event: 'PreToolUse' }))
void d
const v: string = ah.version
void v
