#!/usr/bin/env node
// test-dist-node, inside the user's project: the `agenthooks` command npm
// linked (node_modules/.bin/agenthooks, the package's JS shim) runs the
// native CLI of the platform package and passes argv, stdin, stdout, the
// exit code and signals through.
//
//   node node_cli_check.mjs VERSION PAYLOAD_FILE
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const [version, payloadFile] = process.argv.slice(2)
const shim = path.resolve('node_modules/.bin/agenthooks')
const suffix = `${process.platform}-${process.arch}-gnu`
const native = fs.realpathSync(path.resolve(`node_modules/agenthooks-${suffix}/bin/agenthooks`))
const payload = fs.readFileSync(payloadFile)

const viaShim = (args, input) => spawnSync(shim, args, { input, encoding: 'utf8' })
const direct = (args, input) => spawnSync(native, args, { input, encoding: 'utf8' })

// --version: the native binary's answer
let r = viaShim(['--version'])
assert.equal(r.status, 0, r.stderr)
assert.equal(r.stdout.trim(), `agenthooks ${version}`)

// argv, stdin, stdout: the same bytes as the binary run directly
for (const args of [['decode', '--provider', 'claude-code'], ['respond', '--provider', 'claude-code', '--decision', '{"kind":"deny","reason":"no"}']]) {
  const a = viaShim(args, payload)
  const b = direct(args, payload)
  assert.equal(a.status, 0, a.stderr)
  assert.equal(a.stdout, b.stdout)
  assert.ok(a.stdout.length > 0)
}
assert.equal(JSON.parse(viaShim(['decode', '--provider', 'claude-code'], payload).stdout).tool.command, 'rm -rf dist')

// exit code and stderr of a usage error
r = viaShim(['no-such-command'])
const d = direct(['no-such-command'])
assert.equal(d.status, 2)
assert.equal(r.status, d.status)
assert.equal(r.stderr, d.stderr)

// The process the shim starts is the native binary; a SIGTERM to the shim
// ends it, and the shim dies of the same signal.
const child = spawn(shim, ['decode', '--provider', 'claude-code'], { stdio: ['pipe', 'ignore', 'ignore'] })
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
let cli = null
for (let i = 0; i < 100 && !cli; i++) {
  await new Promise((res) => setTimeout(res, 50))
  try {
    const kids = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)
    cli = kids.find((pid) => fs.realpathSync(`/proc/${pid}/exe`) === native) ?? null
  } catch {
    // not started yet
  }
}
assert.ok(cli, `the shim (pid ${child.pid}) never ran ${native}`)
child.kill('SIGTERM')
const end = await exited
assert.deepEqual(end, { code: null, signal: 'SIGTERM' })
assert.ok(!fs.existsSync(`/proc/${cli}`), `the CLI (pid ${cli}) outlived the shim`)

console.log(`node_cli_check: npx agenthooks ${version} runs ${native} (argv, stdio, exit code, SIGTERM passed through)`)
