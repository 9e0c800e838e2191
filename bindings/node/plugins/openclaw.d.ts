// Types of the OpenClaw plugin (agenthooks/openclaw).
import type { BridgeOptions, PluginOptions, RouterLike } from './common'

export type { BridgeOptions, PluginOptions } from './common'

/** OpenClaw options beyond the shared ones. */
export interface OpenclawOptions extends PluginOptions {
  /** The plugin id (must match openclaw.plugin.json; default `agenthooks`). */
  id?: string
  /** Display name. */
  name?: string
  /** Description. */
  description?: string
}

/** The subset of OpenClaw's plugin API the entry uses. */
export interface OpenclawApi {
  on(hook: string, handler: (event: any, ctx: any) => unknown, options?: { timeoutMs?: number; priority?: number }): void
  logger?: { warn(message: string): void }
  /** OpenClaw's runtime; `runtime.version` is the product version. */
  runtime?: { version?: string; [key: string]: unknown }
  pluginConfig?: Record<string, unknown>
  [key: string]: unknown
}

/** A native plugin entry (the default export of the plugin's module). */
export interface OpenclawPluginEntry {
  id: string
  name: string
  description: string
  register(api: OpenclawApi): void
}

/** The OpenClaw plugin entry for a router (in-process). */
export declare function openclaw(router: RouterLike, options?: OpenclawOptions): OpenclawPluginEntry
/** The OpenClaw plugin entry bridging to a hook program (`agenthooks serve --provider=openclaw`). */
export declare function openclaw(bridge: BridgeOptions & OpenclawOptions, options?: OpenclawOptions): OpenclawPluginEntry

/** Hooks forwarded by default. */
export declare const DEFAULT_HOOKS: readonly string[]
/** Hooks whose return value OpenClaw reads (awaited under the deadline). */
export declare const GATING: ReadonlySet<string>
/** Synchronous hooks, never forwarded. */
export declare const SYNC_HOOKS: ReadonlySet<string>
