#!/usr/bin/env node
// The npm version is the workspace version (Cargo.toml [workspace.package]).
// Checks package.json and package-lock.json agree with it; `--fix` writes them.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const cargo = fs.readFileSync(path.join(PKG, '../../Cargo.toml'), 'utf8')
const section = cargo.split(/^\[/m).find((s) => s.startsWith('workspace.package]'))
const want = section?.match(/^version\s*=\s*"([^"]+)"/m)?.[1]
if (!want) {
  console.error('check-version: no version in [workspace.package] of Cargo.toml')
  process.exit(1)
}
const fix = process.argv.includes('--fix')
let bad = 0
for (const file of ['package.json', 'package-lock.json']) {
  const p = path.join(PKG, file)
  const json = JSON.parse(fs.readFileSync(p, 'utf8'))
  const slots = [[json, 'version']]
  if (file === 'package-lock.json' && json.packages?.['']) slots.push([json.packages[''], 'version'])
  for (const [obj, key] of slots) {
    if (obj[key] === want) continue
    if (fix) {
      obj[key] = want
    } else {
      console.error(`check-version: ${file} has ${obj[key]}, the workspace has ${want} (run scripts/check-version.mjs --fix)`)
      bad += 1
    }
  }
  if (fix) fs.writeFileSync(p, JSON.stringify(json, null, 2) + '\n')
}
if (bad) process.exit(1)
console.log(`check-version: agenthooks ${want} (package.json, package-lock.json, Cargo workspace)`)
