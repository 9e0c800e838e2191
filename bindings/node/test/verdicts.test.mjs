// Every vector of fixtures/simulate/verdicts/verdicts.json through the
// core's verdict (agenthooks/testing verdict), and the assert* helpers
// agreeing with it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { AgentHooksError } from 'agenthooks'
import { assertBlockedEverywhere, assertNoEmptyAllow, assertRunsEverywhere, verdict } from 'agenthooks/testing'

const here = path.dirname(fileURLToPath(import.meta.url))
const file = path.join(here, '..', '..', '..', 'fixtures', 'simulate', 'verdicts', 'verdicts.json')
const { cases } = JSON.parse(fs.readFileSync(file, 'utf8'))
const asserts = {
  blocked_everywhere: assertBlockedEverywhere,
  runs_everywhere: assertRunsEverywhere,
  no_empty_allow: assertNoEmptyAllow,
}

test('there are verdict vectors', () => {
  assert.ok(cases.length >= 10, String(cases.length))
})

for (const c of cases) {
  test(`verdict vector ${c.name}`, () => {
    const v = verdict(c.assertion, c.outcomes)
    assert.equal(v.holds, c.holds)
    assert.equal(v.checked, c.checked)
    assert.deepEqual(v.offending.map((b) => ({ index: b.index, agent: b.agent })), c.offending)
    assert.ok(v.offending.every((b) => typeof b.reason === 'string' && b.reason.length > 0))
    assert.equal(v.nothing_checked !== undefined, c.nothing_checked)
    const check = asserts[c.assertion]
    assert.ok(check, c.assertion)
    if (c.holds) check(c.outcomes)
    else assert.throws(() => check(c.outcomes), (e) => e.name === 'AssertionError')
  })
}

test('an unknown assertion is an error', () => {
  assert.throws(() => verdict('blocked_somewhere', []), (e) => e instanceof AgentHooksError && e.code === 'invalid_argument')
})
