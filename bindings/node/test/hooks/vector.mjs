// The vector guard of fixtures/runtime/README.md as a hook program, for
// test/vectors.test.mjs: the router's policy from AH_VECTOR_POLICY.
import { Decision, Router, main } from 'agenthooks'

const policy = process.env.AH_VECTOR_POLICY ? JSON.parse(process.env.AH_VECTOR_POLICY) : {}
const router = new Router({ policy })
router.onToolPre((e) => {
  if (e.tool.command.includes('rm -rf')) return Decision.deny('vector guard: rm -rf is not allowed')
  if (e.tool.command.includes('needs-approval')) return Decision.ask('vector guard: needs approval')
  return undefined
})
main(router)
