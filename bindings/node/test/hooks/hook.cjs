// The CommonJS flavour of a hook program (require('agenthooks')).
const { Decision, Router, main } = require('agenthooks')

const router = new Router()
router.onToolPre((e) => (e.tool.command?.includes('rm') ? Decision.deny('no rm (cjs)') : undefined))
main(router)
