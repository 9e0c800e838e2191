// Types of the OpenCode plugin (agenthooks/opencode).
import type { BridgeOptions, PluginOptions, RouterLike } from './common'

export type { BridgeOptions, PluginOptions } from './common'

/** OpenCode options beyond the shared ones. */
export interface OpencodeOptions extends PluginOptions {
  /** Forward every bus event, streaming message parts included (default: failed tool parts only). */
  allEvents?: boolean
}

/** The hooks object an OpenCode plugin returns. */
export type OpencodeHooks = Record<string, (...args: any[]) => Promise<void>>

/** An OpenCode plugin: `async (ctx) => hooks`. */
export type OpencodePlugin = (ctx: {
  client?: unknown
  directory?: string
  worktree?: string
  [key: string]: unknown
}) => Promise<OpencodeHooks>

/** The OpenCode plugin for a router (in-process). */
export declare function opencode(router: RouterLike, options?: OpencodeOptions): OpencodePlugin
/** The OpenCode plugin bridging to a hook program (`agenthooks serve --provider=opencode`). */
export declare function opencode(bridge: BridgeOptions & OpencodeOptions, options?: OpencodeOptions): OpencodePlugin

/** Named hooks forwarded by default. */
export declare const DEFAULT_HOOKS: readonly string[]
/** Named hooks `options.hooks` may add. */
export declare const KNOWN_HOOKS: ReadonlySet<string>
