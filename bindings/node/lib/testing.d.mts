// ESM types: the same declarations as the CommonJS entry point.
export * from './testing.js'
import * as testing from './testing.js'
export default testing
