// The package's `agenthooks` command (bin/agenthooks.js) runs the CLI
// binary of the platform package `agenthooks-<platform>` and passes argv,
// stdin/stdout/stderr, the exit code and signals through. Here the binary
// is a shell script standing in for the Rust CLI (make test-dist-node runs
// the real one from the packed tarballs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const unix = process.platform !== 'win32'

// node_modules/agenthooks/bin/agenthooks.js and, unless `platform` is
// false, node_modules/agenthooks-<platform>/bin/agenthooks = `script`.
function install(script, platform = true) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-cli-shim-'))
  const main = path.join(root, 'node_modules', 'agenthooks')
  fs.mkdirSync(path.join(main, 'bin'), { recursive: true })
  fs.copyFileSync(path.join(PKG, 'package.json'), path.join(main, 'package.json'))
  fs.copyFileSync(path.join(PKG, 'bin', 'agenthooks.js'), path.join(main, 'bin', 'agenthooks.js'))
  if (platform) {
    const musl = fs.existsSync('/usr/bin/ldd') && fs.readFileSync('/usr/bin/ldd', 'utf8').includes('musl')
    const suffix = `${process.platform}-${process.arch}-${musl ? 'musl' : 'gnu'}`
    const plat = path.join(root, 'node_modules', `agenthooks-${suffix}`)
    fs.mkdirSync(path.join(plat, 'bin'), { recursive: true })
    fs.writeFileSync(path.join(plat, 'package.json'), JSON.stringify({ name: `agenthooks-${suffix}`, version: '0.0.0' }))
    fs.writeFileSync(path.join(plat, 'bin', 'agenthooks'), `#!/bin/sh\n${script}\n`, { mode: 0o755 })
  }
  return { root, shim: path.join(main, 'bin', 'agenthooks.js') }
}

test('argv, stdin, stdout, stderr and the exit code pass through', { skip: !unix && 'POSIX shell stand-in' }, (t) => {
  const { root, shim } = install(`printf '%s|' "$@"; cat; echo oops >&2; exit 7`)
  t.after(() => fs.rmSync(root, { recursive: true, force: true }))
  const r = spawnSync(process.execPath, [shim, 'decode', 'a b', '--x=1'], { input: 'payload\n', encoding: 'utf8' })
  assert.equal(r.stdout, 'decode|a b|--x=1|payload\n')
  assert.equal(r.stderr, 'oops\n')
  assert.equal(r.status, 7)
})

test('a signal to the command ends the binary, and the command dies of it', { skip: !unix && 'POSIX signals' }, async (t) => {
  const { root, shim } = install(`echo started; exec sleep 30`)
  t.after(() => fs.rmSync(root, { recursive: true, force: true }))
  const child = spawn(process.execPath, [shim], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise((resolve) => child.stdout.once('data', resolve))
  const kids = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)
  assert.equal(kids.length, 1)
  const started = Date.now()
  child.kill('SIGTERM')
  const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])))
  assert.deepEqual([code, signal], [null, 'SIGTERM'])
  assert.ok(Date.now() - started < 10000)
  // The binary got the signal too: it is gone (or a zombie awaiting its
  // reaper) well before its `sleep 30` would end. Polled: on a loaded
  // machine the kernel may not have finished it when the command exits.
  const gone = () => {
    try {
      return fs.readFileSync(`/proc/${kids[0]}/stat`, 'utf8').replace(/^.*\) /s, '').startsWith('Z')
    } catch {
      return true
    }
  }
  while (!gone() && Date.now() - started < 10000) await new Promise((r) => setTimeout(r, 20))
  assert.ok(gone(), 'the binary outlived the command')
})

// The order that makes it so, checked directly: when the command starts the
// binary, its signal handlers are already installed.
test('the signal handlers are in place before the binary starts', { skip: !unix && 'POSIX signals' }, (t) => {
  const { root, shim } = install('exit 0')
  t.after(() => fs.rmSync(root, { recursive: true, force: true }))
  const preload = path.join(root, 'count-handlers.cjs')
  fs.writeFileSync(
    preload,
    `const cp = require('node:child_process')
const spawn = cp.spawn
cp.spawn = function (...args) {
  process.stderr.write('handlers at spawn: ' + ['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s)).join(',') + '\\n')
  return spawn.apply(this, args)
}
`,
  )
  const r = spawnSync(process.execPath, ['--require', preload, shim], { encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.stderr, /^handlers at spawn: 1,1,1$/m)
})

// A signal at any moment after the command starts never leaves the binary
// running: the command's handlers are in place before the binary starts
// (a SIGTERM right after the spawn used to kill the command by default and
// orphan the binary; seen on a loaded machine).
test('a signal right after start never orphans the binary', { skip: !unix && 'POSIX signals' }, async (t) => {
  const pids = fs.mkdtempSync(path.join(os.tmpdir(), 'ah-cli-shim-pids-'))
  const { root, shim } = install(`echo $$ > "${pids}/$AH_SHIM_ROUND"; exec sleep 30`)
  t.after(() => {
    fs.rmSync(root, { recursive: true, force: true })
    fs.rmSync(pids, { recursive: true, force: true })
  })
  const alive = (pid) => {
    try {
      return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').startsWith('Z')
    } catch {
      return false
    }
  }
  for (let round = 0; round < 20; round++) {
    const child = spawn(process.execPath, [shim], {
      stdio: 'ignore',
      env: { ...process.env, AH_SHIM_ROUND: String(round) },
    })
    // From "as soon as it exists" to well after the binary started.
    await new Promise((r) => setTimeout(r, (round % 10) * 15))
    child.kill('SIGTERM')
    await new Promise((resolve) => child.on('exit', resolve))
    const file = path.join(pids, String(round))
    // No pid file (after a moment for a late binary to write it): the
    // command died before starting the binary.
    const noFileUntil = Date.now() + 300
    const deadline = Date.now() + 10000
    let pid = null
    while (Date.now() < deadline) {
      try {
        pid = fs.readFileSync(file, 'utf8').trim() || null
      } catch {
        pid = null
      }
      if (pid === null ? Date.now() > noFileUntil : !alive(pid)) break
      await new Promise((r) => setTimeout(r, 20))
    }
    if (pid !== null && alive(pid)) {
      process.kill(Number(pid), 'SIGKILL')
      assert.fail(`round ${round}: the binary (pid ${pid}) outlived the command`)
    }
  }
})

test('the binary dying of a signal: the command dies of the same one', { skip: !unix && 'POSIX signals' }, (t) => {
  const { root, shim } = install(`kill -HUP $$`)
  t.after(() => fs.rmSync(root, { recursive: true, force: true }))
  const r = spawnSync(process.execPath, [shim], { encoding: 'utf8' })
  assert.equal(r.signal, 'SIGHUP')
})

test('no platform package: a clear error, exit 1', (t) => {
  const { root, shim } = install('', false)
  t.after(() => fs.rmSync(root, { recursive: true, force: true }))
  const r = spawnSync(process.execPath, [shim, '--version'], { encoding: 'utf8' })
  assert.equal(r.status, 1)
  assert.match(r.stderr, /agenthooks: no CLI binary for this platform: the package agenthooks-[a-z0-9]+-[a-z0-9]+(-[a-z]+)? is not installed/)
})
