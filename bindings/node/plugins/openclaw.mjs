// ESM entry of the OpenClaw plugin (the CommonJS one is ./openclaw.js).
// createRequire, not `import cjs from`: see lib/index.mjs.
import { createRequire } from 'node:module'

const cjs = createRequire(import.meta.url)('./openclaw.js')

export const { openclaw, DEFAULT_HOOKS, GATING, SYNC_HOOKS } = cjs
export default cjs.openclaw
