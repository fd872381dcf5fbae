// Writes src/version.ts from package.json, so the elements report the version they were built from.
// Runs before every build and on `npm version`; test/node/version.test.ts fails when the two differ.
import { readFileSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const file = new URL('../src/version.ts', import.meta.url);
const text = `/** The package version, written from package.json by scripts/write-version.mjs. */\nexport const VERSION = '${version}';\n`;
if (readFileSync(file, { encoding: 'utf8', flag: 'a+' }) !== text) writeFileSync(file, text);
