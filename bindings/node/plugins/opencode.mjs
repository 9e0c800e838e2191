// ESM entry of the OpenCode plugin (the CommonJS one is ./opencode.js).
import cjs from './opencode.js'

export const { opencode, DEFAULT_HOOKS, KNOWN_HOOKS } = cjs
export default cjs.opencode
