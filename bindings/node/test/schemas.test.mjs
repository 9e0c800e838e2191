// The npm package ships the JSON Schemas (package.json `files`: schemas/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const load = (rel) => JSON.parse(readFileSync(join(pkgDir, 'schemas', rel), 'utf8'));

test('the package ships every indexed schema', () => {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  assert.ok(pkg.files.includes('schemas/'), 'package.json files lists schemas/');
  const index = load('index.json');
  assert.deepEqual(Object.keys(index.agents).sort(), [
    'claude-code', 'codex', 'copilot', 'cursor', 'gemini', 'kimi-code', 'openclaw', 'opencode',
  ]);
  let n = 0;
  for (const [agent, entry] of Object.entries(index.agents)) {
    for (const [event, paths] of Object.entries(entry.events)) {
      for (const which of ['input', 'output']) {
        assert.equal(load(paths[which]).title, `${agent} ${event} ${which}`);
        n += 1;
      }
    }
  }
  assert.ok(n > 400, `${n} schemas`);
  assert.equal(load('canonical/event.json').title, 'canonical event');
});
