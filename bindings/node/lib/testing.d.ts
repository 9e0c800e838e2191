// Types of the test kit (agenthooks/testing): run a router in-process or a
// hook program out of process against every agent's payload, and assert
// what each agent DOES with the answer. For node:test and vitest: plain
// functions and assertions that throw node:assert's AssertionError.
import type { AssertionError } from 'node:assert'
import type { DecisionJson, JsonObject, JsonValue, Kind, Note, PolicyJson, ProviderId, Router } from './index'

/** What the agent does with the answer (fixtures/simulate/README.md). */
export type Effect =
  | 'tool_runs'
  | 'tool_runs_without_prompt'
  | 'tool_runs_with_input_rewritten'
  | 'tool_blocked'
  | 'asks_user'
  | 'prompt_blocked'
  | 'prompt_continues'
  | 'prompt_rewritten'
  | 'context_injected'
  | 'agent_continues'
  | 'agent_stops'
  | 'output_replaced'
  | 'no_effect'

/** Why an answer is suspect on an agent (fixtures/simulate/README.md). */
export type WarningCode =
  | 'empty_allow'
  | 'json_on_stderr'
  | 'stderr_read_as_answer'
  | 'json_ignored_on_exit'
  | 'invalid_json'
  | 'plain_text_stdout'
  | 'stdout_injected_verbatim'
  | 'unknown_field'
  | 'ignored_field'
  | 'unsupported_decision'
  | 'missing_reason'
  | 'reason_dropped'
  | 'hook_failed'
  | 'fail_open'
  | 'fail_closed'
  | 'timed_out'
  | 'crashed'
  | 'exit_code_ignored'
  | 'hangs_headless'

/** Every agent (provider id). */
export declare const AGENTS: readonly ProviderId[]
/** Every effect name. */
export declare const EFFECTS: readonly Effect[]
/** Every warning code. */
export declare const WARNINGS: readonly WarningCode[]

/** One payload of the fixture corpus shipped in the core. */
export interface CorpusEntry {
  agent: ProviderId
  /** `<agent>/<fixture file stem>`. */
  name: string
  /** The native event. */
  event: string
  kind: Kind
  /** The variant the payload needs (`cloud`, `remote`, ...), if any. */
  variant?: string
  /** Whether the payload names its event (else decode with `event`). */
  names_event: boolean
  payload: JsonObject
}

/** A hook's answer as the agent got it. */
export interface Answer {
  stdout: string
  stderr: string
  /** `null`: killed by a signal, timed out, or never started. */
  exit: number | null
  timed_out?: boolean
}

/** One warning of a prediction. */
export interface Warning {
  code: WarningCode
  message: string
}

/** What the agent does with one answer. */
export interface Prediction {
  agent: ProviderId
  event: string
  kind: Kind
  effect: Effect
  /** The decision the agent read (`allow`, `deny`, `ask`, `block`, ...). */
  decision?: string
  /** The text the model is shown. */
  model_sees?: string
  /** The text the user is shown. */
  user_sees?: string
  /** The replacement tool input, on `tool_runs_with_input_rewritten`. */
  updated_input?: JsonValue
  warnings: Warning[]
}

/** A prediction of the decision form of `predict`: plus the encoded answer. */
export interface EncodedPrediction extends Prediction {
  answer: Answer
  notes: Note[]
}

/** One agent's run of one scenario. */
export interface Outcome {
  agent: ProviderId
  /** The scenario's label. */
  scenario: string
  /** The native event (empty when skipped). */
  event: string
  /** The native tool name, on tool events. */
  tool?: string
  /** Why this agent has no such case, if so (then nothing ran). */
  skipped?: string
  /** The argv that ran (`agenthooks run --provider=... --event=...` for a router). */
  argv?: string[]
  /** The hook variables the agent sets (hook programs). */
  env?: [string, string][]
  /** The payload sent. */
  payload?: JsonObject
  /** The deadline in milliseconds (hook programs). */
  timeout_ms?: number
  /** What came back (absent when skipped). */
  answer?: Answer
  duration_ms?: number
  /** The hook program could not be run at all. */
  run_error?: string
  /** What the agent does with the answer (absent when skipped). */
  prediction?: Prediction
  /** How the run differs from the agent's own. */
  notes?: string[]
  /** The notes of the router's response (routers only). */
  response_notes?: Note[]
}

/** A scenario: what happens on the agent side (the core's JSON form). */
export type Scenario =
  | {
      name?: string
      /** `tool.pre`, `tool.post`, `prompt.submit`, `stop`. */
      event: string
      /** The tool class of a tool event (default `shell`). */
      tool?: 'shell' | 'file.edit' | 'file.read'
      command?: string
      path?: string
      prompt?: string
    }
  | {
      name?: string
      /** The agent the payload belongs to. */
      agent: ProviderId | string
      payload: JsonObject
      /** The native event, when the payload does not name it. */
      event?: string
    }

/** Builders of scenarios. */
export declare const Scenario: {
  /** A shell command about to run (`tool.pre`). */
  shell(command: string, name?: string): Scenario
  /** A file edit about to run. */
  edit(path: string, name?: string): Scenario
  /** A file read about to run. */
  read(path: string, name?: string): Scenario
  /** A submitted prompt. */
  prompt(text: string, name?: string): Scenario
  /** The agent is about to stop. */
  stop(name?: string): Scenario
  /** One agent's native payload, sent as is. */
  payload(agent: ProviderId | string, payload: JsonObject, event?: string | null, name?: string): Scenario
}

/** What runs for an agent: a scenario, a corpus entry, or that agent's native payload. */
export type Input = Scenario | CorpusEntry | JsonObject | string | Uint8Array

/** Scenarios for `acrossAgents` / `payloads`: one, a list, or the core's standard set. */
export type Scenarios = Scenario | CorpusEntry | readonly (Scenario | CorpusEntry)[] | 'builtin'

/** One agent's payload for one scenario. */
export type PayloadCase =
  | { agent: ProviderId; scenario: string; event: string; tool: string | null; payload: JsonObject }
  | { agent: ProviderId; scenario: string; skipped: string }

export interface RunOptions {
  /** The native event of a payload that does not name it. */
  event?: string | undefined
  /** The project directory the payloads name (default: `process.cwd()`). */
  cwd?: string | undefined
  /**
   * The state dir of the runs (dedupe markers, the stop-loop counter);
   * default: a fresh one per run, so runs never see each other.
   */
  stateDir?: string | undefined
}

export interface HookOptions extends RunOptions {
  /** The hook's deadline (default: each agent's own default timeout). */
  timeoutMs?: number | undefined
}

export interface AcrossOptions extends HookOptions {
  /** The agents to run (default: all eight). */
  agents?: readonly (ProviderId | string)[] | undefined
}

/** The answer form of `predict`. */
export interface PredictAnswerRequest {
  agent: ProviderId | string
  event: string
  tool?: string | null | undefined
  /** The answer; a `run()` Response (`exit_code`) is accepted too. */
  answer: Partial<Answer> | { stdout: string; stderr: string; exit_code: number }
  /** `headless`: a non-interactive run (nobody to ask); default `interactive`. */
  mode?: 'interactive' | 'headless' | undefined
}

/** The decision form of `predict`: the decision is encoded for the payload first. */
export interface PredictDecisionRequest {
  agent: ProviderId | string
  payload: JsonObject
  event?: string | null | undefined
  decision: DecisionJson
  policy?: PolicyJson | null | undefined
  mode?: 'interactive' | 'headless' | undefined
}

/** The fixture corpus shipped in the core, optionally of one agent and kind. */
export declare function corpus(filter?: { agent?: ProviderId | string | undefined; kind?: Kind | string | undefined }): CorpusEntry[]
/** Each agent's native payload for each scenario. */
export declare function payloads(
  scenarios: Scenarios,
  options?: { agents?: readonly (ProviderId | string)[] | undefined; cwd?: string | undefined },
): PayloadCase[]
/** What an agent does with a hook's answer. */
export declare function predict(request: PredictAnswerRequest): Prediction
export declare function predict(request: PredictDecisionRequest): EncodedPrediction
/** A router's answer to one agent's payload, in-process (through `run`), and what the agent does with it. */
export declare function runRouter(router: Router, agent: ProviderId | string, input: Input, options?: RunOptions): Promise<Outcome>
/**
 * A hook program (`argv`; `{agent}` and `{event}` are replaced) run as the
 * agent runs its hooks, and what the agent does with its answer.
 */
export declare function runHook(argv: readonly string[], agent: ProviderId | string, input: Input, options?: HookOptions): Promise<Outcome>
/** A router (in-process) or a hook program (argv) on every agent, for one or more scenarios. */
export declare function acrossAgents(target: Router | readonly string[], scenarios: Scenarios, options?: AcrossOptions): Promise<Outcome[]>

/** The outcome of one agent (the first), if any. */
export declare function outcomeOf(outcomes: Outcome | readonly Outcome[], agent: ProviderId | string): Outcome | undefined
/** The effect on one agent, if it ran. */
export declare function effectOf(outcomes: Outcome | readonly Outcome[], agent: ProviderId | string): Effect | undefined
/** Whether the agent's native event can block at all (its capability). */
export declare function canBlock(agent: ProviderId | string, event: string): boolean
/** One outcome in words: agent, event, scenario, effect, warnings, wire answer. */
export declare function describeOutcome(outcome: Outcome): string

/** An assertion failure: the message lists each offending agent; `outcomes` holds them. */
export interface OutcomeAssertionError extends AssertionError {
  outcomes: Outcome[]
}

/** An assertion whose verdict the core gives (docs/testing.md). */
export type VerdictAssertion = 'blocked_everywhere' | 'runs_everywhere' | 'no_empty_allow'
/** One outcome that breaks the assertion: its index in the list given, and why. */
export interface VerdictOffense {
  index: number
  agent: ProviderId
  scenario: string
  event: string
  reason: string
}
/** The core's verdict of an assertion over outcomes. */
export interface Verdict {
  assertion: VerdictAssertion
  /** Nothing offends and something was checked. */
  holds: boolean
  checked: number
  offending: VerdictOffense[]
  /** Why nothing could be checked (then it does not hold). */
  nothing_checked?: string
}
/** The core's verdict of `assertion` over outcomes (the same rules in every language). */
export declare function verdict(assertion: VerdictAssertion, outcomes: Outcome | readonly Outcome[]): Verdict

/** Every hook run started (skipped agents aside), and at least one ran. */
export declare function assertRan(outcomes: Outcome | readonly Outcome[]): void
/** Every agent whose event can block it blocked it (tool or prompt blocked). */
export declare function assertBlockedEverywhere(outcomes: Outcome | readonly Outcome[]): void
/** The action goes ahead on every agent (a stop stops): not blocked, not asking, no failed run. */
export declare function assertRunsEverywhere(outcomes: Outcome | readonly Outcome[]): void
/** No agent sees an empty allow (warning `empty_allow`). */
export declare function assertNoEmptyAllow(outcomes: Outcome | readonly Outcome[]): void
/** No outcome carries this warning. */
export declare function assertNoWarning(outcomes: Outcome | readonly Outcome[], code: WarningCode): void
/** The outcome (or that agent's outcomes) has this effect. */
export declare function assertEffect(outcome: Outcome, effect: Effect): void
export declare function assertEffect(outcomes: readonly Outcome[], effect: Effect, agent: ProviderId | string): void
/** Every outcome that ran has this effect. */
export declare function assertEffectEverywhere(outcomes: Outcome | readonly Outcome[], effect: Effect): void
