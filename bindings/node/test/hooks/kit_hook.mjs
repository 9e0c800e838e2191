// A hook program for the test-kit tests: `kit_hook.mjs <mode> agenthooks
// run --provider=...`. Modes: `guard` denies `rm -rf` on every agent,
// `forgets-gemini` the same except on Gemini CLI, `allow` allows every
// tool call, `noop` has no opinion, `crash` dies before answering.
import { Decision, Router, main } from 'agenthooks'

const mode = process.argv[2]
if (mode === 'crash') process.kill(process.pid, 'SIGKILL')

const router = new Router()
router.onToolPre((e) => {
  const rm = (e.tool.command ?? '').includes('rm -rf')
  if (mode === 'allow') return Decision.allow()
  if (mode === 'noop' || !rm) return Decision.noDecision()
  if (mode === 'forgets-gemini' && e.provider === 'gemini') return Decision.noDecision()
  return Decision.deny('no recursive deletes')
})
main(router)
