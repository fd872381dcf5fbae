import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { VERSION } from '../../src/version.js';

it('the elements report the version in package.json', () => {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  assert.equal(VERSION, version, 'run `node scripts/write-version.mjs` (npm run build does)');
});
