#!/usr/bin/env node
// The `agenthooks` command of the npm package: runs the native CLI binary
// shipped in this platform's package (`agenthooks-<platform>`, an optional
// dependency resolved by npm like the addon's), with this process's argv,
// stdin/stdout/stderr (inherited, not piped), exit code and signals.
'use strict'

const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

// The napi-rs platform suffix of this machine: linux-x64-gnu, darwin-arm64, ...
function platformSuffix() {
  const { platform, arch } = process
  if (platform === 'linux') return `${platform}-${arch}-${isMusl() ? 'musl' : 'gnu'}`
  if (platform === 'win32') return `${platform}-${arch}-msvc`
  return `${platform}-${arch}`
}

// As the addon's loader (index.js) decides it.
function isMusl() {
  try {
    return fs.readFileSync('/usr/bin/ldd', 'utf8').includes('musl')
  } catch {
    // no ldd script: ask the runtime
  }
  if (!process.report || typeof process.report.getReport !== 'function') return false
  process.report.excludeNetwork = true
  const report = process.report.getReport()
  if (report && report.header && report.header.glibcVersionRuntime) return false
  return Array.isArray(report && report.sharedObjects) && report.sharedObjects.some((f) => f.includes('libc.musl-') || f.includes('ld-musl-'))
}

function binaryPath() {
  const pkg = `agenthooks-${platformSuffix()}`
  const exe = process.platform === 'win32' ? 'agenthooks.exe' : 'agenthooks'
  let dir
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`))
  } catch {
    process.stderr.write(
      `agenthooks: no CLI binary for this platform: the package ${pkg} is not installed.\n` +
        'npm installs it as an optional dependency of agenthooks; reinstall without --omit=optional ' +
        '(or --no-optional), or this platform has no prebuilt binary.\n',
    )
    process.exit(1)
  }
  return path.join(dir, 'bin', exe)
}

// Signals sent to this process (kill, a supervisor's timeout) go to the
// CLI too; a terminal's Ctrl-C reaches both through the process group.
// (Not SIGUSR1: Node starts its inspector on it.) The handlers are in
// place before the CLI starts: a signal in between would otherwise end
// this process by its default action and leave the CLI running. (A signal
// caught while the code below runs is handled after it, when `child` is
// set.)
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2']
let child = null
const forward = (sig) => {
  try {
    child.kill(sig)
  } catch {
    // the child is gone already; its exit is handled below
  }
}
for (const sig of forwarded) {
  try {
    process.on(sig, forward)
  } catch {
    // not every signal exists on every platform
  }
}

const bin = binaryPath()
child = spawn(bin, process.argv.slice(2), { stdio: 'inherit', windowsHide: true })

child.on('error', (err) => {
  process.stderr.write(`agenthooks: cannot run ${bin}: ${err.message}\n`)
  process.exit(1)
})

child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so the caller sees what it would have seen
    // running the binary itself. Node ignores some signals (SIGPIPE) and
    // starts its inspector on SIGUSR1; then exit as a shell reports it.
    for (const sig of forwarded) process.removeAllListeners(sig)
    if (signal !== 'SIGUSR1') process.kill(process.pid, signal)
    setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 100)
    return
  }
  process.exit(code ?? 1)
})
