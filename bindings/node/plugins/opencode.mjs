// ESM entry of the OpenCode plugin (the CommonJS one is ./opencode.js).
// createRequire, not `import cjs from`: see lib/index.mjs.
import { createRequire } from 'node:module'

const cjs = createRequire(import.meta.url)('./opencode.js')

export const { opencode, DEFAULT_HOOKS, KNOWN_HOOKS } = cjs
export default cjs.opencode
