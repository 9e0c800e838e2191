// Types of the npm package `agenthooks` (hand-written; the native addon's
// generated types are ../index.d.ts). Data objects (events, decisions,
// policies, responses) use the canonical JSON's snake_case keys, the same in
// every language; functions and options are camelCase.

import type { NativeInputs } from './native'
/** Typed native views: one namespace per agent, one interface per native event (generated). */
export type * as native from './native'
export type { NativeInputs } from './native'

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue }

/** Provider ids (aliases such as `claude` are accepted wherever a provider is taken). */
export type ProviderId = 'claude-code' | 'codex' | 'cursor' | 'gemini' | 'kimi-code' | 'copilot' | 'opencode' | 'openclaw'

/** Unified event kinds. */
export type Kind =
  | 'session.start'
  | 'session.end'
  | 'prompt.submitted'
  | 'tool.pre'
  | 'tool.post'
  | 'tool.error'
  | 'permission.request'
  | 'agent.stop'
  | 'subagent.start'
  | 'subagent.stop'
  | 'compact.pre'
  | 'compact.post'
  | 'notification'
  | 'file.edited'
  | 'model.request'
  | 'model.response'
  | 'other'

/** Canonical tool classes. */
export type Canonical = 'shell' | 'file.read' | 'file.write' | 'file.edit' | 'search' | 'fetch' | 'task' | 'mcp' | 'other'

/** Stable error codes shared by every language. */
export type ErrorCode =
  | 'invalid_json'
  | 'invalid_utf8'
  | 'not_an_object'
  | 'missing_event'
  | 'wrong_type'
  | 'too_large'
  | 'too_deep'
  | 'unknown_provider'
  | 'unknown_event_spelling'
  | 'invalid_decision'
  | 'unsupported_decision'
  | 'lossy_update'
  | 'handler_error'
  | 'handler_timeout'
  | 'io'
  | 'panic'
  | 'invalid_argument'

/** Decision kinds. */
export type DecisionKind =
  | 'no_decision'
  | 'allow'
  | 'deny'
  | 'ask'
  | 'defer'
  | 'accept_prompt'
  | 'block_prompt'
  | 'finish'
  | 'continue'
  | 'observed'
  | 'flag_output'
  | 'replace_output'

/** Session-level facts (absent fields are omitted). */
export interface SessionInfo {
  id?: string
  turn_id?: string
  cwd?: string
  workspace_roots?: string[]
  transcript_path?: string
  model?: string
  permission_mode?: string
  user_email?: string
}

/** The subagent an event comes from. */
export interface AgentInfo {
  id?: string
  type?: string
}

/** The MCP server and tool behind an MCP tool call. */
export interface McpInfo {
  server?: string
  tool?: string
  url?: string
  command?: string
}

/** One tool call, normalized. */
export interface ToolCall {
  /** The agent's id, or a synthesized one (`synthesized: true`). */
  id?: string
  synthesized?: true
  /** Native tool name, verbatim. */
  name: string
  canonical: Canonical
  mcp?: McpInfo
  /** The input, always an object (omitted when empty). */
  input?: JsonObject
  /** The input exactly as the agent sent it. */
  raw_input?: JsonValue
  /** Shell command facet. */
  command?: string
  paths?: string[]
  pattern?: string
  glob?: string
}

/** Token and cost usage reported with a stop. */
export interface Usage {
  input_tokens?: number
  output_tokens?: number
  cache_read_tokens?: number
  cache_write_tokens?: number
  cost?: number
  loop_count?: number
  status?: string
}

/** Stop-event facts and the loop guard. */
export interface StopInfo {
  previously_continued?: true
  loop_count?: number
  final_message?: string
  usage?: Usage
}

/** Fields every event may carry (the canonical JSON; absent values omitted). */
export interface EventBase {
  provider: ProviderId
  variant?: string
  native_name: string
  kind: Kind
  detection?: 'config' | 'env' | 'shape'
  session?: SessionInfo
  agent?: AgentInfo
  tool?: ToolCall
  prompt?: string
  output?: JsonValue
  failed?: true
  error?: string
  duration_ms?: number
  stop?: StopInfo
  source?: string
  reason?: string
  trigger?: string
  instructions?: string
  message?: string
  path?: string
  backfilled?: true
  /** The session mode when the event carries one (a run's `--observed`). */
  mode_signal?: string
  /**
   * Whether a person can answer a prompt in this session: `true`
   * interactive, `false` headless, `null` unknown. The mode the event
   * carries, else observed on first read (this process's environment and
   * /proc, once per process, as an `ask` does). Not enumerable.
   */
  readonly interactive?: boolean | null
  /** The signal that decided `interactive` (`argv:-p`, ...), `null` when unknown. Not enumerable. */
  readonly modeSignal?: string | null
  /** The payload, verbatim (parsed); `rawText(event)` gives the exact text. */
  raw: JsonValue
  /**
   * The payload as the agent sent it (`raw`, parsed once), untyped; with
   * an agent and native event name, first checks the event is that one
   * (else throws `invalid_argument`) and types it by the generated native
   * view (`native.claude_code.PreToolUse`, ...: lib/native.d.ts, from the
   * published JSON Schemas). Not enumerable; absent on events built as
   * plain objects.
   */
  readonly native?: NativeAccessor
}

/** `event.native`: see {@link EventBase.native}. */
export interface NativeAccessor {
  (): JsonValue
  <A extends keyof NativeInputs, E extends keyof NativeInputs[A]>(agent: A, event: E): NativeInputs[A][E]
}

/** `tool.pre`: a tool is about to run. */
export interface ToolPreEvent extends EventBase { kind: 'tool.pre'; tool: ToolCall }
/** `tool.post`: a tool ran. */
export interface ToolPostEvent extends EventBase { kind: 'tool.post'; tool: ToolCall }
/** `tool.error`: a tool failed. */
export interface ToolErrorEvent extends EventBase { kind: 'tool.error'; tool: ToolCall }
/** `permission.request`: the agent is about to ask the user. */
export interface PermissionRequestEvent extends EventBase { kind: 'permission.request'; tool: ToolCall }
/** `prompt.submitted`: the user submitted a prompt. */
export interface PromptEvent extends EventBase { kind: 'prompt.submitted' }
/** `agent.stop`: the agent is about to stop. */
export interface StopEvent extends EventBase { kind: 'agent.stop' }
/** `subagent.stop`: a subagent is about to stop. */
export interface SubagentStopEvent extends EventBase { kind: 'subagent.stop' }
/** `session.start`. */
export interface SessionStartEvent extends EventBase { kind: 'session.start' }
/** Every other kind (no gating decision; `native` for the escape hatch). */
export interface OtherEvent extends EventBase {
  kind:
    | 'session.end'
    | 'subagent.start'
    | 'compact.pre'
    | 'compact.post'
    | 'notification'
    | 'file.edited'
    | 'model.request'
    | 'model.response'
    | 'other'
}

/** Any event: a discriminated union on `kind`. */
export type Event =
  | ToolPreEvent
  | ToolPostEvent
  | ToolErrorEvent
  | PermissionRequestEvent
  | PromptEvent
  | StopEvent
  | SubagentStopEvent
  | SessionStartEvent
  | OtherEvent

/** The event type of a kind. */
export type EventOf<K extends Kind> = Extract<Event, { kind: K }>

/** Decision JSON (what handlers may return as a plain object). */
export interface DecisionJson {
  kind: DecisionKind
  /** Shown to the model (deny, ask, block_prompt, flag_output). */
  reason?: string
  /** What the agent should do next (continue). */
  instruction?: string
  /** Extra context for the model, in order (a single string is accepted). */
  context?: string[] | string
  /** Shown to the human only. */
  system_message?: string
  /** Human-facing message for a block, where the agent has one. */
  block_reason?: string
  /** Stop the agent entirely (`true`, a reason, or `{reason}`). */
  stop_agent?: { reason?: string } | boolean | string
  /** Replacement tool input (a whole object). */
  updated_input?: JsonObject
  /**
   * RFC 7396 merge patch against the tool input as the agent sent it
   * (`null` deletes a key, objects merge, arrays and scalars replace).
   */
  patch_input?: JsonObject
  /** Set by the router's fold: where handlers' rewrites collided. */
  rewrite_conflicts?: string[]
  /** Replacement tool output. */
  replaced_output?: JsonValue
  /** Escape hatch: merged verbatim into the agent's answer. */
  native?: JsonObject
}

/** A hook's decision plus modifiers. */
export declare class Decision {
  kind: DecisionKind
  reason?: string
  instruction?: string
  context?: string[]
  system_message?: string
  block_reason?: string
  stop_agent?: { reason?: string }
  updated_input?: JsonObject
  patch_input?: JsonObject
  rewrite_conflicts?: string[]
  replaced_output?: JsonValue
  native?: JsonObject
  constructor(kind?: DecisionKind, fields?: Partial<Omit<DecisionJson, 'kind'>>)
  /** No opinion: the agent's own flow runs (never the same as allow). */
  static noDecision(): Decision
  /** Approve the tool call (skips the agent's prompt). */
  static allow(): Decision
  /** Block the tool call; `reason` goes to the model. */
  static deny(reason: string): Decision
  /** Ask the human. */
  static ask(reason: string): Decision
  /** Claude Code: end the run and hand the call back. */
  static defer(): Decision
  /** Let the prompt through (neutral). */
  static acceptPrompt(): Decision
  /** Block the prompt. */
  static blockPrompt(reason: string): Decision
  /** Let the agent stop (neutral). */
  static finish(): Decision
  /** Keep the agent going with an instruction. */
  static continueWith(instruction: string): Decision
  /** Saw the output (neutral). */
  static observed(): Decision
  /** Tell the model something is wrong with the output. */
  static flagOutput(reason: string): Decision
  /** Replace the output the model sees. */
  static replaceOutput(output: JsonValue): Decision
  /** Parses decision JSON (text or object) strictly (throws `invalid_decision`). */
  static from(json: string | DecisionJson | Decision): Decision
  withReason(reason: string): this
  withContext(context: string): this
  withSystemMessage(message: string): this
  withBlockReason(message: string): this
  withStopAgent(reason?: string): this
  withUpdatedInput(input: JsonObject): this
  /** Patches the tool input (RFC 7396 merge patch; `null` deletes a key). */
  withPatchInput(patch: JsonObject): this
  withNative(object: JsonObject): this
}

/** What a handler may return: `undefined`/`null` mean no opinion. */
export type DecisionLike = Decision | DecisionJson | null | undefined | void

/** Policy JSON; absent fields take the core defaults. */
export interface PolicyJson {
  /** Handler failure: let the action through (`open`, default) or block (`closed`). */
  fail?: 'open' | 'closed'
  /** A decision the agent cannot express: degrade it (default) or fail. */
  unsupported?: 'degrade' | 'strict'
  /** What `ask` becomes where an agent cannot ask (default `deny`). */
  ask_fallback?: 'no_decision' | 'deny'
  /** What `ask` becomes in a session known to be headless (default `deny`). */
  headless_ask?: 'deny' | 'no_decision' | 'native'
  /** Consecutive stop continuations allowed (default 5; 0: no cap). */
  continuation_cap?: number
  /** Handler deadline (default: 90% of the agent's `--timeout`, else 55 000). */
  timeout_ms?: number
}

/** The declared policy. */
export declare class Policy implements PolicyJson {
  fail?: 'open' | 'closed'
  unsupported?: 'degrade' | 'strict'
  ask_fallback?: 'no_decision' | 'deny'
  headless_ask?: 'deny' | 'no_decision' | 'native'
  continuation_cap?: number
  timeout_ms?: number
  constructor(init?: PolicyJson)
  static failOpen(): Policy
  static failClosed(): Policy
  /** Fills the core defaults into a partial policy. */
  static normalize(policy?: PolicyJson | string | null): Required<Omit<PolicyJson, 'timeout_ms'>> & PolicyJson
  withFail(fail: 'open' | 'closed'): this
  withUnsupported(mode: 'degrade' | 'strict'): this
  withAskFallback(fallback: 'no_decision' | 'deny'): this
  withHeadlessAsk(rule: 'deny' | 'no_decision' | 'native'): this
  withContinuationCap(cap: number): this
  withTimeoutMs(ms: number): this
}

/** One note of a response. */
export interface Note {
  /** `degraded`, `dropped`, `lossy_update`, `reshaped`, `continuation_capped`, `fail_open`, `fail_closed`, ... */
  code: string
  from?: string
  to?: string
  /** Free text (never compared by tests). */
  detail?: string
}

/** What goes back to the agent: exact stdout, stderr, exit code, plus notes. */
export interface Response {
  stdout: string
  stderr: string
  exit_code: number
  notes: Note[]
}

/** What one native event of one agent can express. */
export interface Capability {
  provider: string
  native_name: string
  kind: string
  can_block: boolean
  decisions: string[]
  modifiers: string[]
}

/** Options of `decode`. */
export interface DecodeOptions {
  /** Variant (`cli`, `ide`, ...), when known. */
  variant?: string
  /** Native event name, for payloads that do not carry one. */
  event?: string
  /** Payload size limit in bytes (default 16 MiB). */
  maxBytes?: number
  /** How the provider was identified (default `config`). */
  detection?: 'config' | 'env' | 'shape'
}

/** An error of the core, with its stable `code`. */
export declare class AgentHooksError<C extends string = ErrorCode> extends Error {
  readonly code: C
  constructor(code: C, message: string, options?: { cause?: unknown })
}

/** A handler: sync or async, returning a decision (or nothing for no opinion). */
export type Handler<E extends EventBase = Event> = (event: E) => DecisionLike | Promise<DecisionLike>
/** An observer of every event: never gates. */
export type Observer = (event: Event) => unknown
/** The rest of the pipeline, given to middleware (call it at most once). */
export type Next = (event?: Event) => Promise<Decision>
/** Middleware around the pipeline. */
export type Middleware = (event: Event, next: Next) => DecisionLike | Promise<DecisionLike>
/** What `when` tests a tool call against. */
export type Matcher = string | string[] | { canonical: Canonical } | ((tool: ToolCall) => boolean)

/** Options of the Router. */
export interface RouterOptions {
  policy?: PolicyJson
}

/** The registry of handlers, observers and middleware, plus the policy. */
export declare class Router {
  constructor(options?: RouterOptions)
  /** The effective policy (every default filled). */
  readonly policy: Readonly<Required<Omit<PolicyJson, 'timeout_ms'>> & PolicyJson>
  setPolicy(policy?: PolicyJson | null): this
  on<K extends Kind>(kind: K, ...handlers: Handler<EventOf<K>>[]): this
  on(kind: string, ...handlers: Handler[]): this
  onNative(nativeName: string, ...handlers: Handler[]): this
  onToolPre(...handlers: Handler<ToolPreEvent>[]): this
  onToolPost(...handlers: Handler<ToolPostEvent>[]): this
  onToolError(...handlers: Handler<ToolErrorEvent>[]): this
  onPermissionRequest(...handlers: Handler<PermissionRequestEvent>[]): this
  onPrompt(...handlers: Handler<PromptEvent>[]): this
  onStop(...handlers: Handler<StopEvent>[]): this
  onSubagentStop(...handlers: Handler<SubagentStopEvent>[]): this
  onSessionStart(...handlers: Handler<SessionStartEvent>[]): this
  onAny(observer: Observer): this
  use(middleware: Middleware): this
  middleware(middleware: Middleware): this
  handles(event: Event): boolean
  /** The winning decision, no wire encoding. Rejects with AgentHooksError. */
  decide(event: Event): Promise<Decision>
}

/** The core's first-conclusive-wins fold. */
export declare class Fold {
  push(decision: DecisionLike): boolean
  isDone(): boolean
  finish(): Decision
}

export declare const ERROR_CODES: readonly ErrorCode[]
export declare const PROVIDERS: readonly ProviderId[]
export declare const KINDS: readonly Kind[]
/** The package version (the workspace version). */
export declare const version: string

/** Decodes one hook payload (text, bytes, or a parsed object) into the canonical event. */
export declare function decode(provider: ProviderId | string, payload: string | Uint8Array | JsonObject, options?: DecodeOptions): Event
/** Encodes a decision into the agent's exact answer, degrading per policy. */
export declare function respond(event: Event, decision: DecisionLike, policy?: PolicyJson | null): Response
/** The answer for a handler outcome (a decision, or an Error through the fail policy); never throws for it. */
export declare function answer(event: Event, outcome: DecisionLike | Error, policy?: PolicyJson | null): Response
/** The fail policy's answer for an error (`event` null: undecodable payload). */
export declare function failResponse(provider: ProviderId | string, event: Event | null, error: unknown, policy?: PolicyJson | null): Response
/** The answer to a payload that failed to decode (`error`: what decode threw). */
export declare function failResponseForPayload(provider: ProviderId | string, payload: string | Uint8Array | JsonObject, error: unknown, policy?: PolicyJson | null): Response
/** Options of `detect`. */
export interface DetectOptions {
  /** The `--provider` flag (wins when given). */
  provider?: string | null
  /** Environment variables (default `process.env`). */
  env?: Record<string, string | undefined>
  /** The process argv (legacy argv payloads). */
  argv?: string[]
}
/** Who called, and how that was found. */
export interface Detected {
  provider: ProviderId
  detection: 'config' | 'env' | 'shape'
  variant?: string
}
/** Names the calling agent (flag, then environment, then payload shape); throws `unknown_provider`. */
export declare function detect(payload: string | Uint8Array | JsonObject | null | undefined, options?: DetectOptions): Detected
/** Parsed `agenthooks run` arguments. */
export interface RunArgs {
  command: string
  provider?: string
  event?: string
  variant?: string
  timeoutS?: number
  fail?: 'open' | 'closed'
  hookId?: string
  matcher?: string
  maxBytes?: number
  stateDir?: string
  /** `--async`: answer at once, run the handlers in a detached child (docs/async.md). */
  asyncRun?: boolean
  /** `--async-child`: this process is that child. */
  asyncChild?: boolean
  /** The ancestors' argv lists, nearest first, instead of `/proc` (prompt backfill; tests). */
  ancestry?: string[][]
}
/**
 * Validates a hook's argv strictly; `null` without the `agenthooks` word.
 * Throws for an unknown option or a bad value (`main` only warns about
 * unknown options and answers a bad value per the fail policy).
 */
export declare function parseArgs(argv: string[]): RunArgs | null
/** The event's canonical JSON text, `raw` spliced in verbatim. */
export declare function canonicalJson(event: Event): string
/** The payload exactly as the agent sent it. */
export declare function rawText(event: Event): string
export declare function isMutation(event: Event): boolean
export declare function isSubagent(event: Event): boolean
export declare function capability(provider: ProviderId | string, nativeName: string): Capability
export declare function nativeEvents(provider: ProviderId | string): string[]
export declare function kindOf(provider: ProviderId | string, nativeName: string): Kind
export declare function parseProvider(s: string): ProviderId
export declare function parseKind(s: string): Kind
export declare function providerDisplayName(provider: ProviderId | string): string
export declare function validateDecision(decision: DecisionLike, kind: Kind | string): void
export declare function mergeFirst(decisions: DecisionLike[]): Decision
export declare function mergeAll(decisions: DecisionLike[]): Decision
/** A matcher for `when`: tool calls of a canonical class. */
export declare function canonical(cls: Canonical): { canonical: Canonical }
export declare function when<E extends EventBase = Event>(matcher: Matcher, handler: Handler<E>): Handler<E>
export declare function any<E extends EventBase = Event>(...handlers: Handler<E>[]): Handler<E>
export declare function all<E extends EventBase = Event>(...handlers: Handler<E>[]): Handler<E>
/** The handler deadline (ms): the policy's `timeout_ms`, else 90% of the config's `--timeout` (seconds), else 55 000. */
export declare function deadlineMs(policy?: PolicyJson | null, timeoutS?: number | null): number
/** Runs the router within a deadline; rejects with `handler_timeout`. */
export declare function decideWithDeadline(router: Router, event: Event, deadlineMs: number): Promise<Decision>
/**
 * One author-side run without process side effects: what `main` would
 * answer for this argv and stdin (usage without the `agenthooks` word,
 * exit 64; the fail policy's answer for a bad argv value). `args`
 * replaces the parsed arguments (e.g. `{ ...parseArgs(argv)!, stateDir }`).
 */
export declare function run(
  router: Router,
  argv: string[],
  payload?: string | Uint8Array | null,
  args?: RunArgs,
): Promise<Response>
/** The whole author-side run: argv, stdin, handlers, answer, exit. Never returns. */
/**
 * The `serve` loop (the OpenCode / OpenClaw plugin bridges) without process
 * side effects: `argv` with `agenthooks serve --provider=...`, `input` the
 * NDJSON frames. Resolves to the reply lines (`stdout`), diagnostics and
 * exit code `main` would produce.
 */
export declare function serve(
  router: Router,
  argv: string[],
  input: string | Uint8Array | AsyncIterable<string | Uint8Array>,
  args?: RunArgs,
): Promise<{ stdout: string; stderr: string; exit_code: number }>
export declare function main(router: Router): Promise<never>

// ------------------------------------------------------ host side, install

/** A dialect whose hook configs the host side runs. */
export type HostDialect = 'claude-code' | 'codex'
/** Codes of a configuration / matcher diagnostic (the core's `DiagCode`). */
export type DiagCode =
  | 'invalid_json'
  | 'wrong_type'
  | 'missing_field'
  | 'missing_command'
  | 'unknown_handler_type'
  | 'unsupported_handler_type'
  | 'invalid_timeout'
  | 'invalid_regex'
  | 'invalid_flags'
  | 'regex_too_complex'
  | 'matcher_capacity'
  | 'unknown_event'
  | 'unknown_key'
  | 'matcher_ignored'
  | 'hooks_disabled'
  | 'invalid_if'
  /** Reported per event: the matcher could not be evaluated exactly as the agent would; the hook ran. */
  | 'matcher_undecided'
  /** Reported per event (Claude Code): the working directory does not exist; the hooks ran from the fallback directory. */
  | 'cwd_missing'
/** One configuration or matcher problem. */
export interface Diagnostic {
  agent: HostDialect
  source?: string
  event: string
  group_index?: number
  handler_index?: number
  pattern?: string
  code: DiagCode
  severity: 'error' | 'warning'
  reason: string
}
/** Codes `hostRun` throws: a core code, or `config_rejected` (with `diagnostics`; only with `strict: true`). */
export type HostErrorCode = ErrorCode | 'config_rejected'
/** Thrown by `hostRun`; `diagnostics` with `config_rejected` (only with `strict: true`). */
export interface HostError extends AgentHooksError<HostErrorCode> {
  diagnostics?: Diagnostic[]
}
/** A hook configuration: its text (with a label) or a file to read. */
export type HostConfig = { source?: string; text: string } | { source?: string; path: string }
/** The request of `hostRun` (camelCase or the core's snake_case keys). */
export interface HostRunRequest {
  dialect: HostDialect
  configs?: HostConfig[]
  /** Plugins' hooks.json documents and their roots (`CLAUDE_PLUGIN_ROOT`). */
  plugins?: { root: string; hooks: JsonObject }[]
  /** A hook payload (decoded as `eventProvider`, default the dialect) or a canonical event. */
  event: JsonObject
  eventProvider?: ProviderId | string
  cwd?: string
  projectDir?: string
  defaultTimeoutS?: number
  outputCap?: number
  sequential?: boolean
  /**
   * Refuse a configuration with any bad entry (throws `config_rejected`).
   * Default false: a bad entry is skipped, exactly as the agent skips it,
   * and reported in `warnings`.
   */
  strict?: boolean
}
/** One hook that ran. */
export interface HostHookRun {
  hook: string
  command: string
  exit_code: number | null
  timed_out: boolean
  output: JsonObject
}
/** What `hostRun` returns. */
export interface HostRunResult {
  dialect: HostDialect
  event: string
  subjects: string[]
  /** The merged result, as the agent would act on it. */
  outcome: JsonObject
  hooks: HostHookRun[]
  audit: JsonObject[]
  /** Every diagnostic: entries skipped as the agent skips them (severity 'error'), caveats, per-event ones (`matcher_undecided`, `cwd_missing`). */
  warnings: Diagnostic[]
}
/** What an agent does with a hook's answer (docs/testing.md; stable snake_case effect and warning codes). */
export interface Prediction {
  agent: ProviderId
  event: string
  kind: string
  effect: string
  decision?: string
  model_sees?: string
  user_sees?: string
  updated_input?: JsonObject
  warnings?: { code: string; message: string }[]
  /** The decision form only: the encoded wire answer and its notes. */
  answer?: { stdout: string; stderr: string; exit: number | null; timed_out?: boolean }
  notes?: JsonObject[]
}
/** The behaviour reader: `{agent, event, tool?, answer}` or `{agent, payload, event?, decision, policy?}`. */
export declare function predict(request: JsonObject): Prediction
/** Runs a hook command as each agent would (synchronous): `{command, scenarios?, agents?, cwd?, timeoutMs?}` -> `{outcomes}`. */
export declare function simulate(request: { command: string[]; scenarios?: 'builtin' | JsonObject[]; agents?: string[]; cwd?: string; timeoutMs?: number }): { outcomes: JsonObject[] }
/** The fixture corpus shipped in the addon. */
export declare function fixtureCorpus(filter?: { agent?: string; kind?: string }): { fixtures: { agent: ProviderId; name: string; event: string; kind: string; variant?: string; names_event: boolean; payload: JsonObject }[] }
/** Each agent's payload for each scenario. */
export declare function scenarioPayloads(request?: { scenarios?: 'builtin' | JsonObject[]; agents?: string[]; cwd?: string }): { cases: JsonObject[] }
/** Runs the hooks of a Claude Code / Codex config for one event, as that agent would (synchronous); throws HostError. */
export declare function hostRun(request: HostRunRequest): HostRunResult
/** Compiles `pattern` as `dialect` would and tests each subject; throws `AgentHooksError<DiagCode>` with `diagnostic` on an invalid pattern. */
export declare function matcherTest(dialect: HostDialect, pattern: string, subjects?: readonly string[]): boolean[]
/** Thrown by `matcherTest` on an invalid pattern. */
export interface MatcherError extends AgentHooksError<DiagCode | ErrorCode> {
  diagnostic?: Diagnostic
}

/** Where `install` / `uninstall` / `doctor` act. */
export interface InstallTarget {
  /** 'claude-code', 'codex,cursor', ... or 'all' (default). */
  agent?: string
  /** Default 'project'. */
  scope?: 'user' | 'project' | 'local'
  project?: string
  home?: string
  env?: Record<string, string>
  /** Plan only: report the changes, write nothing. */
  dryRun?: boolean
  cursorEvents?: string[]
}
/** One file an install changes. */
export interface InstallFileChange {
  path: string
  before: string | null
  after: string | null
}
/** One agent's result. */
export type InstallResult =
  | { agent: string; scope: string; changed: boolean; files: InstallFileChange[]; diff: string; notes: string[] }
  | { agent: string; error: { code: string; message: string } }
/** A hook manifest: hooks.toml / hooks.json text, or the manifest object. */
export type Manifest = string | JsonObject
/** Installs a manifest into agents' configs (idempotent); throws AgentHooksError on a bad request. */
export declare function install(manifest: Manifest, target?: InstallTarget): { results: InstallResult[] }
/** Removes what `install` wrote. */
export declare function uninstall(manifest: Manifest, target?: InstallTarget): { results: InstallResult[] }
/** What is installed where, per agent (`run`: also self-check each hook). */
export declare function doctor(target?: { home?: string; project?: string; env?: Record<string, string>; run?: boolean }): { agents: JsonObject[] }

/** An MCP server's transport, from the agent's own configuration (never env values or headers). */
export interface McpTransport {
  server: string
  transport: 'stdio' | 'http' | 'sse' | string
  command?: string
  args?: string[]
  url?: string
  from_config: boolean
  config_path?: string
  /** `user`, `local` and `flag` are the user's own; `project` came with the repository; `plugin`; `payload`. */
  scope: 'user' | 'local' | 'project' | 'plugin' | 'flag' | 'payload'
}
/** The transport of the MCP server an event's tool call names (lazy, cached per session), or null. */
export declare function mcpTransport(event: { tool?: { mcp?: unknown } | null } & JsonObject): McpTransport | null
/** An explicit MCP lookup in a given HOME / project tree. */
export declare function resolveMcpTransport(request: {
  provider: string
  server: string
  cwd?: string
  home?: string
  env?: Record<string, string>
  agent_argv?: string[]
  payload_url?: string
  payload_command?: string
}): McpTransport | null
/** One transcript line. */
export interface TranscriptEntry {
  line: number
  offset: number
  kind: 'message' | 'meta' | 'unknown' | 'invalid' | 'too_long'
  format?: string
  type?: string
  role?: string
  text?: string
  tool_calls?: { id?: string; name: string; input: JsonObject }[]
  tool_results?: { id?: string; output?: unknown; is_error?: boolean }[]
  timestamp?: string
  bytes?: number
  raw?: unknown
}
/** Streams a transcript file's entries with bounded memory. */
export declare function readTranscript(
  path: string,
  options?: { format?: string; maxLineBytes?: number; pageSize?: number },
): AsyncGenerator<TranscriptEntry, void, void>
