// The vector guard of fixtures/runtime/README.md as a hook program, for
// test/vectors.test.mjs: the router's policy from AH_VECTOR_POLICY.
import { Decision, Router, main } from 'agenthooks'

const policy = process.env.AH_VECTOR_POLICY ? JSON.parse(process.env.AH_VECTOR_POLICY) : {}
const router = new Router({ policy })
router.onToolPre((e) => (e.tool.command.includes('rm -rf') ? Decision.deny('vector guard: rm -rf is not allowed') : undefined))
main(router)
