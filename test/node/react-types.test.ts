/**
 * `consult-elements/react` type-checks on its own in a partner's strict app: the published
 * declarations carry the event types they use, so with `skipLibCheck: false` an app compiles, each
 * `on…` prop's `event.detail` is typed, and using it as the wrong type is an error.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { flattenDeclarations } from '../../scripts/flatten-declarations.js';

// Inside the repository, so that the app finds react, lit and their types as an installed app does.
const ROOT = join(process.cwd(), 'node_modules', '.cache', 'consult-react-types');
const DECLARATIONS = join(ROOT, 'package');

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

/** The errors of an app made of `source`, against the published declarations. */
function check(name: string, source: string): string[] {
  const file = join(ROOT, 'app', name);
  writeFileSync(file, source);
  const program = ts.createProgram([file], STRICT);
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file?.fileName.replace(ROOT, '') ?? ''} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
}

describe('the React components’ published types', () => {
  before(() => {
    rmSync(ROOT, { recursive: true, force: true });
    mkdirSync(join(ROOT, 'app'), { recursive: true });
    writeFileSync(join(ROOT, 'app', 'package.json'), JSON.stringify({ type: 'module' }));
    // The declarations as `npm run build` publishes them.
    const config = ts.getParsedCommandLineOfConfigFile(
      'tsconfig.build.json',
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)),
      },
    )!;
    const program = ts.createProgram(config.fileNames, {
      ...config.options,
      outDir: DECLARATIONS,
      declaration: true,
      emitDeclarationOnly: true,
      sourceMap: false,
      declarationMap: false,
    });
    const emitted = program.emit();
    assert.deepEqual(
      emitted.diagnostics.map((d) => d.messageText),
      [],
    );
    flattenDeclarations(DECLARATIONS);
  });
  after(() => rmSync(ROOT, { recursive: true, force: true }));

  it('compile in a strict app that checks its libraries, with each event typed', () => {
    const errors = check(
      'app.tsx',
      `import { ConsultForm, ConsultSession, ConsultThread } from '../package/react/index.js';
export const page = (
  <ConsultSession onConsultUnreadChanged={(event) => { const count: number = event.detail.count; void count; }}>
    <ConsultForm onConsultSubmitted={(event) => { const id: string = event.detail.consultationId; void id; }} />
    <ConsultThread onConsultStartNew={(event) => { const why: 'limit' | 'closed' | 'canceled' = event.detail.reason; void why; }} />
  </ConsultSession>
);
`,
    );
    assert.deepEqual(errors, []);
  });

  it('refuse an event detail used as the wrong type', () => {
    const errors = check(
      'wrong.tsx',
      `import { ConsultForm } from '../package/react/index.js';
export const page = <ConsultForm onConsultSubmitted={(event) => { const id: number = event.detail.consultationId; void id; }} />;
`,
    );
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /TS2322: Type 'string' is not assignable to type 'number'/);
  });
});
