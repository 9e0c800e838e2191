// ESM types: the same declarations as the CommonJS entry point.
export * from './index.js'
import * as agenthooks from './index.js'
export default agenthooks
