// Typed usage of agenthooks/testing (ESM), checked by `tsc --noEmit
// --strict` (never run).
import { Decision, Router } from 'agenthooks'
import testing, {
  AGENTS,
  EFFECTS,
  Scenario,
  acrossAgents,
  assertBlockedEverywhere,
  assertEffect,
  assertNoEmptyAllow,
  assertNoWarning,
  assertRunsEverywhere,
  corpus,
  describeOutcome,
  effectOf,
  outcomeOf,
  payloads,
  predict,
  runHook,
  runRouter,
  type CorpusEntry,
  type Effect,
  type EncodedPrediction,
  type Outcome,
  type OutcomeAssertionError,
  type Prediction,
  type WarningCode,
} from 'agenthooks/testing'

const router = new Router()
router.onToolPre((e) => ((e.tool.command ?? '').includes('rm -rf') ? Decision.deny('no') : Decision.noDecision()))

export async function check(): Promise<void> {
  const outcomes: Outcome[] = await acrossAgents(router, Scenario.shell('rm -rf build'))
  assertBlockedEverywhere(outcomes)
  assertNoEmptyAllow(outcomes)
  const hook: Outcome[] = await acrossAgents(['node', 'guard.mjs', 'agenthooks', 'run', '--provider={agent}'], [Scenario.prompt('hi'), Scenario.stop()], {
    agents: ['codex', 'gemini'],
    timeoutMs: 5000,
  })
  assertRunsEverywhere(hook)
  const builtin: Outcome[] = await acrossAgents(router, 'builtin')
  assertNoWarning(builtin, 'empty_allow')
  const entries: CorpusEntry[] = corpus({ agent: 'codex', kind: 'tool.pre' })
  const first = entries[0]
  if (first) {
    const o: Outcome = await runRouter(router, first.agent, first, { stateDir: '/tmp/x' })
    assertEffect(o, 'tool_runs')
    const effect: Effect | undefined = o.prediction?.effect
    const text: string = describeOutcome(o)
    void effect
    void text
  }
  const one: Outcome = await runHook(['./hook'], 'claude-code', { hook_event_name: 'PreToolUse' }, { event: 'PreToolUse' })
  assertEffect([one], 'tool_blocked', 'claude-code')
  const e: Effect | undefined = effectOf(outcomes, 'cursor')
  const found: Outcome | undefined = outcomeOf(outcomes, 'cursor')
  const p: Prediction = predict({ agent: 'codex', event: 'PreToolUse', answer: { stdout: '', stderr: '', exit: 0 }, mode: 'headless' })
  const enc: EncodedPrediction = predict({ agent: 'codex', payload: { hook_event_name: 'PreToolUse' }, decision: { kind: 'deny', reason: 'x' } })
  const w: WarningCode[] = p.warnings.map((x) => x.code)
  const n: number = payloads(Scenario.stop(), { agents: AGENTS }).length + EFFECTS.length
  void [e, found, enc, w, n, testing.AGENTS]
  try {
    assertBlockedEverywhere(outcomes)
  } catch (err) {
    const bad: Outcome[] = (err as OutcomeAssertionError).outcomes
    void bad
  }
  // @ts-expect-error: not an effect
  assertEffect(outcomes[0]!, 'tool_blockd')
  // @ts-expect-error: an array needs the agent
  assertEffect(outcomes, 'tool_blocked')
}
