// Typed usage of the ESM entry point, checked by `tsc --noEmit --strict`
// (never run). Narrowing on `kind`, typed handlers, Promises, decisions.
import agenthooks, {
  AgentHooksError,
  Decision,
  ERROR_CODES,
  Policy,
  Router,
  all,
  answer,
  any,
  canonical,
  decideWithDeadline,
  decode,
  failResponseForPayload,
  respond,
  when,
  type ErrorCode,
  type Event,
  type Response,
  type ToolPreEvent,
} from 'agenthooks'

const router = new Router({ policy: Policy.failClosed().withTimeoutMs(2000) })

router.onToolPre((e) => {
  const cmd: string = e.tool.command ?? ''
  if (cmd.includes('rm -rf')) return Decision.deny('no').withBlockReason('blocked')
  if (e.tool.canonical === 'file.write') return { kind: 'ask', reason: 'sure?' }
  return undefined
})
router.onToolPre(async (e: ToolPreEvent) => {
  await new Promise((r) => setTimeout(r, 1))
  return e.tool.input?.['command'] === 'npm install' ? Decision.allow().withUpdatedInput({ command: 'npm ci' }) : null
})
router.on('tool.post', when(canonical('shell'), (e) => Decision.flagOutput(`saw ${e.tool.name}`)))
router.on('PostToolUse', (e) => (e.kind === 'tool.post' ? Decision.observed() : undefined))
router.onStop((e) => (e.stop?.previously_continued ? Decision.finish() : Decision.continueWith('run the tests')))
router.onPrompt((e) => (e.prompt?.includes('secret') ? Decision.blockPrompt('no secrets') : Decision.acceptPrompt()))
router.onSessionStart(() => Decision.noDecision().withContext('hello'))
router.onNative('ConfigChange', () => Decision.noDecision().withNative({ decision: 'block' }))
router.onAny((e: Event) => console.error(e.kind))
router.use(async (e, next) => {
  const d: Decision = await next(e)
  return d.withContext('via middleware')
})
router.onToolPre(any(when('Write|Edit', () => Decision.deny('x')), all(() => Decision.allow(), () => undefined)))

function describe(e: Event): string {
  switch (e.kind) {
    case 'tool.pre':
    case 'tool.post':
    case 'tool.error':
    case 'permission.request':
      return `${e.kind} ${e.tool.name} ${e.tool.canonical}` // `tool` is narrowed to present
    case 'prompt.submitted':
      return e.prompt ?? ''
    default:
      return e.native_name
  }
}

async function inProcess(): Promise<Response> {
  const e = decode('claude', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } })
  describe(e)
  try {
    const d = await decideWithDeadline(router, e, 500)
    return respond(e, d, { fail: 'closed' })
  } catch (err) {
    if (err instanceof AgentHooksError) {
      const code: ErrorCode = err.code
      console.error(code, ERROR_CODES.includes(code))
    }
    return answer(e, err instanceof Error ? err : new Error(String(err)))
  }
}

try {
  decode('codex', '{x')
} catch (err) {
  const r: Response = failResponseForPayload('codex', '{x', err, { fail: 'closed' })
  console.error(r.exit_code, r.notes.map((n) => n.code))
}

void inProcess()
void agenthooks.main(router)

// The types reject what the runtime would reject (each line must fail).
// @ts-expect-error a handler returns a decision, not a number
router.onToolPre(() => 42)
// @ts-expect-error deny needs a reason
Decision.deny()
// @ts-expect-error unknown decision kind
router.onToolPre(() => ({ kind: 'maybe' }))
// @ts-expect-error unknown policy field
new Router({ policy: { fial: 'closed' } })
// @ts-expect-error `prompt` may be absent on the event
router.onPrompt((e) => (e.prompt.length > 3 ? undefined : undefined))
router.onToolPre((e) => {
  // @ts-expect-error a tool.pre event is not a prompt event
  const k: 'prompt.submitted' = e.kind
  void k
  return undefined
})
