#!/usr/bin/env node
// A throwaway npm registry on loopback serving only the given npm tarballs
// (test-dist-node): `npm install agenthooks` against it resolves
// the main package and its platform optionalDependencies by name, version
// and os/cpu/libc exactly as against registry.npmjs.org, with nothing else
// reachable (any other package is a 404).
//
//   node scripts/dist/node_registry.mjs PORTFILE TARBALL...
//
// Listens on 127.0.0.1 (a free port, written to PORTFILE once listening)
// until killed.
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'

const [portFile, ...tarballs] = process.argv.slice(2)
if (!tarballs.length) {
  console.error('usage: node_registry.mjs PORTFILE TARBALL...')
  process.exit(2)
}

// package/package.json out of an npm tarball (ustar, gzip).
function manifest(tgz) {
  const tar = zlib.gunzipSync(tgz)
  for (let off = 0; off + 512 <= tar.length; ) {
    const name = tar.subarray(off, off + 100).toString('utf8').replace(/\0.*$/s, '')
    if (!name) break
    const size = parseInt(tar.subarray(off + 124, off + 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8)
    if (name === 'package/package.json') return JSON.parse(tar.subarray(off + 512, off + 512 + size).toString('utf8'))
    off += 512 + Math.ceil(size / 512) * 512
  }
  throw new Error('no package/package.json')
}

const packages = new Map() // name -> { versions, tarballs: Map(file -> bytes) }
for (const tarball of tarballs) {
  const file = path.basename(tarball)
  const bytes = fs.readFileSync(tarball)
  const m = manifest(bytes)
  const entry = packages.get(m.name) ?? { versions: {}, tarballs: new Map() }
  entry.versions[m.version] = {
    ...m,
    _id: `${m.name}@${m.version}`,
    dist: {
      tarball: `/${m.name}/-/${file}`,
      integrity: 'sha512-' + crypto.createHash('sha512').update(bytes).digest('base64'),
      shasum: crypto.createHash('sha1').update(bytes).digest('hex'),
    },
  }
  entry.tarballs.set(file, bytes)
  packages.set(m.name, entry)
}

const server = http.createServer((req, res) => {
  const url = decodeURIComponent(new URL(req.url, 'http://x').pathname)
  const [, name, dash, file] = url.split('/')
  const entry = packages.get(name)
  if (entry && !dash) {
    const base = `http://${req.headers.host}`
    const versions = Object.fromEntries(
      Object.entries(entry.versions).map(([v, m]) => [v, { ...m, dist: { ...m.dist, tarball: base + m.dist.tarball } }]),
    )
    const latest = Object.keys(versions).sort().at(-1)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ name, 'dist-tags': { latest }, versions }))
    return
  }
  if (entry && dash === '-' && entry.tarballs.has(file)) {
    res.writeHead(200, { 'content-type': 'application/octet-stream' })
    res.end(entry.tarballs.get(file))
    return
  }
  res.writeHead(404, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ error: 'not found' }))
})
server.listen(0, '127.0.0.1', () => {
  fs.writeFileSync(portFile, String(server.address().port))
})
