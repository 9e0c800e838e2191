// Options shared by the OpenCode and OpenClaw plugins.
import type { Router } from '../lib/index'

/** The plugin-owned behaviour: deadline, fail posture, diagnostics. */
export interface PluginOptions {
  /** Handler deadline in ms (default: the policy's timeout_ms, else 30 s for OpenCode, 10 s for OpenClaw). */
  timeoutMs?: number
  /** Overrides the policy's fail posture for this plugin. */
  fail?: 'open' | 'closed'
  /** Extra hooks to forward beyond the defaults. */
  hooks?: string[]
  /** Where diagnostics go (default: stderr, or OpenClaw's plugin logger). */
  log?: (line: string) => void
}

/** Bridge mode: the hook program runs as `<command...> agenthooks serve --provider=<p>`. */
export interface BridgeOptions extends PluginOptions {
  /** The program and its leading arguments. */
  command: string | string[]
  /** Extra environment for the program. */
  env?: Record<string, string>
  /** The program's working directory. */
  cwd?: string
}

export type RouterLike = Pick<Router, 'decide' | 'policy'>

/** Whether an object key names a credential (never forwarded). */
export declare function isSecretKey(key: string): boolean
/** A JSON-safe copy of a host object without functions, signals, cycles or credential keys. */
export declare function sanitize(value: unknown, options?: { dropKeys?: string[]; maxDepth?: number }): unknown
