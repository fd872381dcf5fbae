/**
 * `consult-elements/react` type-checks on its own in a partner's strict app: the published
 * declarations carry the event types they use, so with `skipLibCheck: false` an app compiles, each
 * `on…` prop's `event.detail` is typed, and using it as the wrong type is an error.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { publishedDeclarations } from '../../scripts/test-build.js';

// Inside the repository, so that the app finds react, lit and their types as an installed app does.
const ROOT = join(process.cwd(), 'node_modules', '.cache', `consult-react-types-${process.pid}`);
/** The app's errors, by page. */
let errors = new Map<string, string[]>();

const STRICT: ts.CompilerOptions = {
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  jsx: ts.JsxEmit.ReactJSX,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
};

/** The app's pages: a correct one, and one that uses an event's detail as the wrong type. */
const pages = (react: string) => ({
  'app.tsx': `import { ConsultForm, ConsultSession, ConsultThread } from '${react}';
export const page = (
  <ConsultSession onConsultUnreadChanged={(event) => { const count: number = event.detail.count; void count; }}>
    <ConsultForm onConsultSubmitted={(event) => { const id: string = event.detail.consultationId; void id; }} />
    <ConsultThread onConsultStartNew={(event) => { const why: 'limit' | 'closed' | 'canceled' = event.detail.reason; void why; }} />
  </ConsultSession>
);
`,
  'wrong.tsx': `import { ConsultForm } from '${react}';
export const page = <ConsultForm onConsultSubmitted={(event) => { const id: number = event.detail.consultationId; void id; }} />;
`,
});

/**
 * Every error of the app, by the page it is in ('' for the libraries and the declarations): one
 * program for both pages, so the libraries are checked once.
 */
function check(react: string): Map<string, string[]> {
  const files = Object.entries(pages(react)).map(([name, source]) => {
    const file = join(ROOT, 'app', name);
    writeFileSync(file, source);
    return file;
  });
  const errors = new Map<string, string[]>();
  for (const d of ts.getPreEmitDiagnostics(ts.createProgram(files, STRICT))) {
    const page = files.includes(d.file?.fileName ?? '') ? relative(join(ROOT, 'app'), d.file!.fileName) : '';
    const text = `${d.file?.fileName.replace(ROOT, '') ?? ''} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    errors.set(page, [...(errors.get(page) ?? []), text]);
  }
  return errors;
}

describe('the React components’ published types', () => {
  before(async () => {
    rmSync(ROOT, { recursive: true, force: true });
    mkdirSync(join(ROOT, 'app'), { recursive: true });
    writeFileSync(join(ROOT, 'app', 'package.json'), JSON.stringify({ type: 'module' }));
    // The declarations as `npm run build` publishes them, from the packed package.
    errors = check(`${relative(join(ROOT, 'app'), await publishedDeclarations())}/react/index.js`);
  });
  after(() => rmSync(ROOT, { recursive: true, force: true }));

  it('compile in a strict app that checks its libraries, with each event typed', () => {
    assert.deepEqual(errors.get('app.tsx') ?? [], []);
    assert.deepEqual(errors.get('') ?? [], [], 'the libraries and the declarations');
  });

  it('refuse an event detail used as the wrong type', () => {
    const wrong = errors.get('wrong.tsx') ?? [];
    assert.equal(wrong.length, 1, wrong.join('\n'));
    assert.match(wrong[0]!, /TS2322: Type 'string' is not assignable to type 'number'/);
  });
});
