// A host whose event loop has nothing else to do must still get the bridge's
// answer: a request in flight keeps the process alive, an idle bridge does not.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '../../../..')
const guard = path.join(repo, 'target/debug/guard')
const bridge = path.join(repo, 'bindings/node/plugins/bridge.js')

test('a pending bridge request keeps an otherwise idle host alive, then lets it exit', () => {
  const script = `
    const { Bridge } = require(${JSON.stringify(bridge)})
    const b = new Bridge({ provider: 'opencode', command: [${JSON.stringify(guard)}] })
    b.request({ hook: 'tool.execute.before', input: { tool: 'bash', sessionID: 's', callID: 'c' },
                output: { args: { command: 'rm -rf /tmp/x' } } })
      .then((r) => console.log('ANSWER ' + JSON.stringify(r.output)))
      .catch((e) => console.log('ERROR ' + e.message))
  `
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20000 })
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.stdout, /ANSWER .*destructive command/, `stdout: ${r.stdout} stderr: ${r.stderr}`)
})
