// ESM types: the same declarations as the CommonJS entry point.
export * from './openclaw.js'
import { openclaw } from './openclaw.js'
export default openclaw
