// ESM entry of the OpenClaw plugin (the CommonJS one is ./openclaw.js).
import cjs from './openclaw.js'

export const { openclaw, DEFAULT_HOOKS, GATING, SYNC_HOOKS } = cjs
export default cjs.openclaw
