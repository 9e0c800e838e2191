// ESM types: the same declarations as the CommonJS entry point.
export * from './opencode.js'
import { opencode } from './opencode.js'
export default opencode
