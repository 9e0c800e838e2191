// Typed usage of agenthooks/testing (CommonJS), checked by `tsc` (never run).
import testing = require('agenthooks/testing')

export async function checkCjs(router: import('agenthooks').Router): Promise<void> {
  const outcomes = await testing.acrossAgents(router, testing.Scenario.shell('rm -rf /'))
  testing.assertBlockedEverywhere(outcomes)
  const o: testing.Outcome | undefined = outcomes[0]
  void o
}
