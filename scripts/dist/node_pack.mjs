#!/usr/bin/env node
// dist-node: the npm package `agenthooks` and its per-platform package
// `agenthooks-<platform>` (napi-rs convention), as `npm pack` tarballs.
//
//   node scripts/dist/node_pack.mjs STAGE DIST TRIPLE ADDON CLI
//
// STAGE   scratch directory (emptied), DIST the output directory,
// TRIPLE  the Rust target ADDON (`napi build --platform --release`) and CLI
//         (`cargo build --release -p agenthooks-cli`) were built for.
//
// The main package is bindings/node as `npm pack` would pack it, minus the
// addon, plus `optionalDependencies` on the platform package(s). The
// platform package holds the addon and the `agenthooks` CLI binary
// (bin/agenthooks, run by the main package's `bin` shim). Both binaries are
// stripped; their symbol tables go into a separate debug tarball, linked
// back by `.gnu_debuglink`. The napi CLI does the napi parts offline:
// `create-npm-dirs` writes the platform package.json (name, os, cpu, libc),
// `pre-publish --skip-optional-publish --no-gh-release` checks the addon is
// in place and writes `optionalDependencies`.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const PKG = path.join(ROOT, 'bindings/node')
const NAPI = path.join(PKG, 'node_modules/.bin/napi')

const [stageArg, distArg, triple, addonArg, cliArg] = process.argv.slice(2)
if (!cliArg) {
  console.error('usage: node_pack.mjs STAGE DIST TRIPLE ADDON CLI')
  process.exit(2)
}
const stage = path.resolve(stageArg)
const dist = path.resolve(distArg)
const addon = path.resolve(addonArg)
const cli = path.resolve(cliArg)

function fail(msg) {
  console.error(`dist-node: ${msg}`)
  process.exit(1)
}

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...opts })
}

const readJson = (p) => JSON.parse(fs.readFileSync(p, 'utf8'))
const writeJson = (p, v) => fs.writeFileSync(p, JSON.stringify(v, null, 2) + '\n')

// One version: the workspace's.
const cargo = fs.readFileSync(path.join(ROOT, 'Cargo.toml'), 'utf8')
const section = cargo.split(/^\[/m).find((s) => s.startsWith('workspace.package]'))
const version = section?.match(/^version\s*=\s*"([^"]+)"/m)?.[1]
if (!version) fail('no version in [workspace.package] of Cargo.toml')
const pkg = readJson(path.join(PKG, 'package.json'))
if (pkg.version !== version) fail(`bindings/node/package.json has ${pkg.version}, the workspace has ${version}`)
for (const f of [addon, cli, NAPI]) if (!fs.existsSync(f)) fail(`missing ${f}`)

fs.rmSync(stage, { recursive: true, force: true })
const main = path.join(stage, 'agenthooks')
fs.mkdirSync(main, { recursive: true })
fs.mkdirSync(dist, { recursive: true })

// ---- the main package: what `npm pack` of bindings/node packs, no addon
const packed = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PKG }))[0].files
for (const { path: rel } of packed) {
  if (rel.endsWith('.node') || rel === 'package.json') continue
  fs.mkdirSync(path.dirname(path.join(main, rel)), { recursive: true })
  fs.copyFileSync(path.join(PKG, rel), path.join(main, rel))
}
const mainJson = { ...pkg, files: pkg.files.filter((f) => !f.endsWith('.node')) }
delete mainJson.devDependencies
delete mainJson.scripts
writeJson(path.join(main, 'package.json'), mainJson)

// ---- the platform package (napi create-npm-dirs, for the built target only)
const napiConfig = 'napi.dist.json'
writeJson(path.join(main, napiConfig), { binaryName: pkg.napi.binaryName, targets: [triple] })
const napi = (...args) => run(NAPI, [...args, '--cwd', main, '--config-path', napiConfig], { stdio: ['ignore', 'pipe', 'pipe'] })
napi('create-npm-dirs')
const npmDir = path.join(main, 'npm')
const [suffix, ...more] = fs.readdirSync(npmDir)
if (!suffix || more.length) fail(`napi create-npm-dirs made ${fs.readdirSync(npmDir).join(', ')}, expected one platform`)
const platDir = path.join(npmDir, suffix)
const platJson = readJson(path.join(platDir, 'package.json'))
const addonName = `${pkg.napi.binaryName}.${suffix}.node`
if (platJson.name !== `${pkg.name}-${suffix}` || platJson.main !== addonName) fail(`unexpected platform package.json: ${JSON.stringify(platJson)}`)
const exe = suffix.startsWith('win32-') ? 'agenthooks.exe' : 'agenthooks'

// Stripped binaries into the platform package; symbol tables to the side.
const debugDir = path.join(stage, 'debug')
fs.mkdirSync(debugDir)
fs.mkdirSync(path.join(platDir, 'bin'))
function stripInto(src, dst) {
  const dbg = path.join(debugDir, `${path.basename(dst)}.debug`)
  run('objcopy', ['--only-keep-debug', src, dbg])
  run('strip', ['--strip-all', '-o', dst, src])
  run('objcopy', [`--add-gnu-debuglink=${dbg}`, dst])
}
stripInto(addon, path.join(platDir, addonName))
stripInto(cli, path.join(platDir, 'bin', exe))
fs.chmodSync(path.join(platDir, 'bin', exe), 0o755)
// The platform package redistributes the compiled library: it carries the
// license texts too.
const licenses = ['LICENSE-MIT', 'LICENSE-APACHE']
for (const l of licenses) fs.copyFileSync(path.join(PKG, l), path.join(platDir, l))
platJson.files = [...platJson.files, `bin/${exe}`, ...licenses]
writeJson(path.join(platDir, 'package.json'), platJson)

// optionalDependencies on the platform package(s), napi's way.
napi('pre-publish', '--skip-optional-publish', '--no-gh-release')
fs.rmSync(path.join(main, napiConfig))
const published = readJson(path.join(main, 'package.json'))
if (published.optionalDependencies?.[platJson.name] !== version) {
  fail(`napi pre-publish did not list ${platJson.name}@${version}: ${JSON.stringify(published.optionalDependencies)}`)
}
// pre-publish stages the npm/ directory into a workspace; the main tarball
// must not carry it.
fs.renameSync(npmDir, path.join(stage, 'npm'))
const platStage = path.join(stage, 'npm', suffix)

// ---- pack, then check what went in
function pack(dir) {
  const [info] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dist], { cwd: dir }))
  return info
}
const mainInfo = pack(main)
const platInfo = pack(platStage)
const mainFiles = mainInfo.files.map((f) => f.path)
if (mainFiles.some((f) => f.endsWith('.node') || f.startsWith('npm/'))) fail(`the main tarball carries a binary: ${mainFiles.join(' ')}`)
if (!mainFiles.includes('bin/agenthooks.js')) fail('the main tarball has no bin/agenthooks.js')
const platFiles = new Map(platInfo.files.map((f) => [f.path, f]))
for (const l of licenses) {
  if (!mainFiles.includes(l)) fail(`the main tarball has no ${l}`)
  if (!platFiles.has(l)) fail(`the platform tarball has no ${l}`)
}
if (!platFiles.has(addonName)) fail(`the platform tarball has no ${addonName}`)
if (!platFiles.has(`bin/${exe}`) || (platFiles.get(`bin/${exe}`).mode & 0o111) === 0) fail(`the platform tarball has no executable bin/${exe}`)

// Symbol tables, one tarball per platform package.
const debugTar = path.join(dist, `${platJson.name}-${version}.debug.tar.gz`)
run('tar', ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-czf', debugTar, '-C', debugDir, ...fs.readdirSync(debugDir)])

for (const f of [mainInfo.filename, platInfo.filename, path.basename(debugTar)]) {
  console.log(`dist-node: ${f} ${fs.statSync(path.join(dist, f)).size} bytes`)
}
