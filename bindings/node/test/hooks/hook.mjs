// A hook program for the main() tests; HOOK_MODE picks the behaviour and
// HOOK_FAIL / HOOK_TIMEOUT_MS the policy.
import { execSync } from 'node:child_process'
import { Decision, Router, main } from 'agenthooks'

const mode = process.env.HOOK_MODE ?? 'deny'
const policy = { fail: process.env.HOOK_FAIL ?? 'open' }
if (process.env.HOOK_TIMEOUT_MS) policy.timeout_ms = Number(process.env.HOOK_TIMEOUT_MS)
const router = new Router({ policy })
if (mode === 'observers') {
  // An async observer that finishes, and one that never does.
  router.onAny(async () => {
    await new Promise((r) => setTimeout(r, 20))
    process.stderr.write('observer finished\n')
  })
  router.onAny(() => new Promise(() => {}))
}

router.onToolPre(async (e) => {
  switch (mode) {
    case 'print':
      console.log('stray console.log')
      console.info('stray console.info')
      process.stdout.write('stray stdout.write\n')
      execSync('echo stray child output', { stdio: 'inherit' })
      return Decision.deny('printed')
    case 'throw':
      throw new Error('boom')
    case 'reject':
      await new Promise((r) => setTimeout(r, 5))
      throw new Error('async boom')
    case 'hang-async':
      return new Promise(() => {})
    case 'hang-sync':
      for (;;) {
        // blocks the event loop: only the native watchdog can answer
      }
    case 'stray-throw':
      setTimeout(() => {
        throw new Error('stray callback')
      }, 5)
      return new Promise((r) => setTimeout(() => r(Decision.allow()), 2000))
    case 'invalid':
      return { kind: 'maybe' }
    case 'slow-ok':
      await new Promise((r) => setTimeout(r, 50))
      return Decision.deny('slow but in time')
    default:
      return e.tool.command?.includes('rm') ? Decision.deny('no rm') : undefined
  }
})

main(router)
