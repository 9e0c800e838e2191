// Binding coverage: what the package exports, what its typings declare and
// what the addon offers agree; every public core API is either wrapped
// (named here with its JS counterpart) or listed with the reason it is not.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const lib = require('../lib/index.js')
const native = require('../index.js')
const LIB_SRC = fs.readFileSync(path.join(PKG, 'lib/index.js'), 'utf8')
const DTS = fs.readFileSync(path.join(PKG, 'lib/index.d.ts'), 'utf8')
const MJS = fs.readFileSync(path.join(PKG, 'lib/index.mjs'), 'utf8')
const testing = require('../lib/testing.js')
const TESTING_SRC = fs.readFileSync(path.join(PKG, 'lib/testing.js'), 'utf8')
const TESTING_DTS = fs.readFileSync(path.join(PKG, 'lib/testing.d.ts'), 'utf8')
const TESTING_MJS = fs.readFileSync(path.join(PKG, 'lib/testing.mjs'), 'utf8')

// Core public API -> JS export (string) or why it is not wrapped.
const CORE = {
  'decode / DecodeOptions': 'decode',
  respond: 'respond',
  'mcp::resolve_for_event / resolve_json': ['mcpTransport', 'resolveMcpTransport'],
  'transcript::Reader / page_json': 'readTranscript',
  fail_response: 'failResponse',
  'dialect::fail_response_for_payload': 'failResponseForPayload',
  capability_of: 'capability',
  native_events: 'nativeEvents',
  'dialect::kind_of': 'kindOf',
  'Provider::parse / ALL / display_name': ['parseProvider', 'PROVIDERS', 'providerDisplayName'],
  'Kind::parse / ALL': ['parseKind', 'KINDS'],
  'ErrorCode::ALL / Error::code': ['ERROR_CODES', 'AgentHooksError'],
  'Decision (constructors, modifiers, from_json, to_json)': 'Decision',
  'Decision::validate_for': 'validateDecision',
  'Policy (from_json, defaults, builders)': 'Policy',
  'Policy::deadline_ms': 'deadlineMs',
  'Event::to_json': 'canonicalJson',
  'Event::raw_str / raw_json': ['rawText', 'decode'],
  'Event::is_subagent': 'isSubagent',
  'ToolCall::is_mutation': 'isMutation',
  'merge::Fold': 'Fold',
  'merge::merge_first': 'mergeFirst',
  'merge::merge_all': 'mergeAll',
  'router::Router (on, on_native, typed on_*, on_any, middleware, handles, decide)': 'Router',
  'router::{any, all, when, Matcher}': ['any', 'all', 'when', 'canonical'],
  'runtime::{launch, start, Plan, Invocation::complete, StdoutGuard, read_stdin}': 'main',
  'runtime::decide_with_deadline': 'decideWithDeadline',
  'runtime::run / run_argv / run_plan': 'run',
  'process::main / run_process': 'main',
  'serve::serve / bridge::Bridge (the serve loop; main drives it for `agenthooks serve`)': 'serve',
  'router::handler / IntoDecision': 'not needed: any JS function is a handler; undefined/null/objects are decisions',
  'runtime::read_limited / read_bounded': 'used inside prepare (stdin is read natively, with the limit)',
  'runtime::universal_answer / usage': 'inside launch and start: main and run answer with them',
  'runtime::prepare': 'inside start (the serve loops of other languages call it per frame)',
  'dialect::json (parse_value, normalize, peek_event_name)': 'inside decode and the fail answers: every payload is read through it',
  'runtime::effective_policy / state_dir / panic_message': 'internal to prepare; no JS use',
  'dialect::tool_names / input_object / patch_paths / sorted_json': 'internal to the dialects (facets arrive in the event)',
  'capability::plan': 'internal to respond',
  'Response / Note': 'plain objects returned by respond (typed in index.d.ts)',
  'dedupe (claim, suppressed_response)': 'applied inside prepare by main(); not wrapped for in-process use yet',
  'detach / backfill / ancestry (async hooks, prompt backfill; docs/async.md)': 'inside main and run (Invocation detach / backfill; run takes args.ancestry)',
  'detect::detect': 'detect',
  'runtime::parse_args (strict; a JSON last argument is the argv payload)': 'parseArgs',
  quirks: 'not wrapped yet (machine-readable registry, still landing)',
  'host::json::matcher_json (matcher::Matcher::compile / matches)': 'matcherTest',
  'host::json::run_json (host::RegistryBuilder, run_event)': 'hostRun',
  'install::json::request_json (install / uninstall / doctor)': ['install', 'uninstall', 'doctor'],
  'host (typed RegistryBuilder, plan, runner, audit)': 'through hostRun: one JSON call, the same shapes as `agenthooks host run`',
  'install (typed Manifest, Target, plan, apply, doctor::report)': 'through install / uninstall / doctor: one JSON call each, the CLI shapes',
  'simulate::json (predict, simulate, corpus, scenario payloads: the test kit)': ['predict', 'simulate', 'fixtureCorpus', 'scenarioPayloads'],
  'testing (the Rust test kit)':
    'agenthooks/testing (lib/testing.js, mapped below): over predict / fixtureCorpus / scenarioPayloads, simulate on a worker thread, routers through run',
  'simulate (typed predict, simulate, route, answer_with, Scenario, Outcome, table)':
    'through the JSON calls; agenthooks/testing runs a router through run (the session main drives), not route',
  'failsafe (table, MARKER)': 'rendered at build time into lib/fail-table.json, which lib/failsafe.js reads when the addon cannot load',
}

// agenthooks/testing: runtime exports of lib/testing.js -> the core item behind each.
const TESTING = {
  AGENTS: 'Provider::ALL',
  EFFECTS: 'simulate::Effect::ALL',
  WARNINGS: 'simulate::WARNING_NAMES',
  Scenario: 'simulate::Scenario (shell, edit, read, prompt, stop, payload)',
  corpus: 'simulate::json::corpus_json',
  payloads: 'simulate::json::scenario_payloads_json',
  predict: 'simulate::json::predict_json',
  runRouter: 'runtime (through run) + predict_json',
  runHook: 'simulate::json::simulate_json',
  acrossAgents: 'run / simulate_json over every agent',
  outcomeOf: 'testing::effect_of',
  effectOf: 'testing::effect_of',
  canBlock: 'testing::can_block',
  describeOutcome: 'simulate::table::answer_summary',
  assertRan: 'testing::assert_ran',
  assertBlockedEverywhere: 'testing::assert_blocked_everywhere',
  assertRunsEverywhere: 'testing::assert_runs_everywhere',
  verdict: 'simulate::verdict::verdict_json',
  assertNoEmptyAllow: 'testing::assert_no_empty_allow',
  assertNoWarning: 'testing::assert_no_warning',
  assertEffect: 'testing::assert_effect',
  assertEffectEverywhere: 'testing::assert_effect_everywhere',
}

function dtsExports() {
  return [...DTS.matchAll(/^export declare (?:class|function|const) (\w+)/gm)].map((m) => m[1])
}

test('runtime exports, typings and the ESM wrapper agree', () => {
  const runtime = Object.keys(lib).sort()
  assert.deepEqual([...new Set(dtsExports())].sort(), runtime, 'lib/index.d.ts declares exactly the runtime exports')
  const esm = [...MJS.matchAll(/^ {2}(\w+),$/gm)].map((m) => m[1]).sort()
  assert.deepEqual(esm, runtime, 'lib/index.mjs re-exports every name (node scripts/gen-esm.mjs regenerates it)')
})

test('every addon export is used by the JS layer', () => {
  const src = LIB_SRC + TESTING_SRC
  const unused = Object.keys(native).filter((k) => k !== '__napiBindingTarget' && !src.includes(`native.${k}`))
  assert.deepEqual(unused, [])
})

test('agenthooks/testing: runtime exports, typings, the ESM wrapper and the core map agree', () => {
  const runtime = Object.keys(testing).sort()
  const dts = [...TESTING_DTS.matchAll(/^export declare (?:class|function|const) (\w+)/gm)].map((m) => m[1])
  assert.deepEqual([...new Set(dts)].sort(), runtime, 'lib/testing.d.ts declares exactly the runtime exports')
  const esm = [...TESTING_MJS.matchAll(/^ {2}(\w+),$/gm)].map((m) => m[1]).sort()
  assert.deepEqual(esm, runtime, 'lib/testing.mjs re-exports every name (node scripts/gen-esm.mjs regenerates it)')
  assert.deepEqual(Object.keys(TESTING).sort(), runtime, 'every testing export maps to a core item')
})

test('every public core API is wrapped or excluded with a reason', () => {
  for (const [item, js] of Object.entries(CORE)) {
    if (Array.isArray(js) || /^[A-Za-z]+$/.test(js)) {
      for (const name of [js].flat()) assert.ok(name in lib, `${item} -> ${name} is exported`)
    } else {
      assert.ok(js.length > 10, `${item}: reason`)
    }
  }
  // Every export maps back to a core item (no JS-only semantics).
  const mapped = new Set(Object.values(CORE).flat())
  const jsOnly = { version: 'CARGO_PKG_VERSION', answer: 'Invocation::complete for in-process callers' }
  for (const k of Object.keys(lib)) assert.ok(mapped.has(k) || k in jsOnly, `${k} maps to a core API`)
})
