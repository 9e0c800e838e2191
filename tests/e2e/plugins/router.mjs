// The router the in-process e2e cases load into the real OpenCode / OpenClaw
// through our plugins: denies `rm -rf` (the model must be told why),
// rewrites `echo original` to `echo rewritten` (in place, on OpenCode), has
// denies a permission request for `needs-approval` commands, no opinion otherwise. With AH_E2E_FRAMES set, logs every decoded frame.
import fs from 'node:fs'

import ah from '../../../bindings/node/lib/index.js'

const router = new ah.Router({ policy: { fail: 'closed' } })
// Every frame the core decoded, one JSON line each, for the credential check.
const frames = process.env.AH_E2E_FRAMES
if (frames) router.onAny((e) => fs.appendFileSync(frames, `${JSON.stringify({ native: e.native_name, kind: e.kind, raw: e.raw })}\n`))
router.onToolPre((e) => {
  const cmd = e.tool.command ?? ''
  if (e.tool.canonical !== 'shell') return undefined
  if (cmd.includes('rm -rf')) return ah.Decision.deny(`destructive command: ${cmd}`)
  if (cmd.includes('echo original')) {
    return ah.Decision.noDecision().withUpdatedInput({ ...e.tool.input, command: cmd.replace('echo original', 'echo rewritten') })
  }
  return undefined
})
// permission.asked (OpenCode with `permission.bash: "ask"`): refuse, with a reason the model reads.
router.onPermissionRequest((e) => {
  const cmd = e.tool?.command ?? ''
  if (cmd.includes('needs-approval')) return ah.Decision.deny(`permission denied by agenthooks: ${cmd}`)
  return undefined
})
export default router
