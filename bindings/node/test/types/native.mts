// The addon's generated types (../../index.d.ts) pass `tsc --strict` too.
import { createRequire } from 'node:module'
import type * as Native from '../../index.js'

const native = createRequire(import.meta.url)('../../index.js') as typeof Native
const ev = native.decode('claude-code', '{"hook_event_name":"Stop"}')
if (!(ev instanceof native.NativeError)) {
  const r: Native.Response | Native.NativeError = native.eventRespond(ev, '{"kind":"finish"}')
  void r
}
