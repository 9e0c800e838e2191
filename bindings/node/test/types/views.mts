// The typed native views (lib/native.d.ts, generated) pass `tsc --strict`
// and type what `event.native(agent, name)` returns.
import { decode } from 'agenthooks'
import type { native, NativeInputs } from 'agenthooks'

const ev = decode('claude-code', '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"permission_mode":"default"}')
if (ev.native !== undefined) {
  const pre = ev.native('claude-code', 'PreToolUse')
  const name: string = pre.tool_name
  const input: { [key: string]: unknown } = pre.tool_input
  const cwd: string | undefined = pre.cwd
  const same: native.claude_code.PreToolUse = pre
  const viaMap: NativeInputs['claude-code']['PreToolUse'] = same
  const untyped = ev.native()
  void [name, input, cwd, viaMap, untyped]
  // @ts-expect-error: not an event of claude-code
  ev.native('claude-code', 'NoSuchEvent')
  // @ts-expect-error: tool_name is a string
  const wrong: number = pre.tool_name
  void wrong
}
