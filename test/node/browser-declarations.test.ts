/**
 * The type declarations the browser entries reach (`consult-elements`, `/define`, `/client`,
 * `/react`) never import zod, an optional peer that a browser-only install leaves out: the build
 * writes the wire types out as plain declarations (scripts/flatten-declarations.ts), and they are
 * exactly the types the source infers from the schemas. Reads the declarations of the packed
 * package, as npm publishes them.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import {
  browserEntryDeclarations,
  declarationGraph,
  zodImportsFromBrowserEntries,
} from '../../scripts/flatten-declarations.js';
import { publishedDeclarations } from '../../scripts/test-build.js';

const ROOT = process.cwd();
// Inside the repository, so that the declarations resolve lit and zod as in `dist`.
const CACHE = join(ROOT, 'node_modules', '.cache', `consult-browser-declarations-${process.pid}`);

describe('the browser entries’ published declarations', () => {
  let outDir: string;

  before(async () => {
    outDir = await publishedDeclarations();
    console.log(`# declarations in ${relative(ROOT, outDir)}`);
  });
  after(() => rmSync(CACHE, { recursive: true, force: true }));

  it('import nothing of zod, however deep', () => {
    const graph = declarationGraph(browserEntryDeclarations(outDir));
    console.log(`# ${graph.size} declaration files reached from the browser entries`);
    assert.ok(graph.size > 20, 'the walk follows the imports');
    assert.ok(graph.has(join(outDir, 'client', 'types.d.ts')));
    assert.ok(graph.has(join(outDir, 'client', 'browser-types.d.ts')));
    assert.deepEqual(zodImportsFromBrowserEntries(outDir), []);
  });

  it('the walk finds a zod import when there is one', () => {
    const copy = join(CACHE, 'with-zod');
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(join(copy, 'client'), { recursive: true });
    writeFileSync(join(copy, 'index.d.ts'), `export * from './client/index.js';\n`);
    writeFileSync(join(copy, 'define.d.ts'), 'export {};\n');
    mkdirSync(join(copy, 'react'));
    writeFileSync(join(copy, 'react', 'index.d.ts'), `export type { View } from '../client/index.js';\n`);
    writeFileSync(join(copy, 'client', 'index.d.ts'), `export * from './views.js';\n`);
    writeFileSync(
      join(copy, 'client', 'views.d.ts'),
      `import type { z } from 'zod';\nexport type View = z.infer<z.ZodString>;\n`,
    );
    assert.deepEqual(zodImportsFromBrowserEntries(copy), [
      'client/index.d.ts → client/views.d.ts imports zod',
    ]);
  });

  it('are exactly the types the source infers from the schemas, field comments kept', () => {
    const flattened = ['client/types', 'client/browser-types', 'client/client'];
    mkdirSync(CACHE, { recursive: true });
    const probe = join(CACHE, 'same-types.mts');
    const lines = [
      'type Exactly<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;',
      'type Same<T extends true> = T;',
      // Identity takes `a?: T` for `a?: T | undefined`; with `-?` (and exactOptionalPropertyTypes) they differ.
      'type Deep<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { [K in keyof T]-?: Deep<T[K]> } : T;',
      'type Equal<A, B> = Exactly<A, B> extends true ? Exactly<Deep<A>, Deep<B>> : false;',
    ];
    const sourceProgram = ts.createProgram(
      flattened.map((f) => join(outDir, `${f}.d.ts`)),
      {
        strict: true,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: [],
      },
    );
    const checker = sourceProgram.getTypeChecker();
    let compared = 0;
    flattened.forEach((file, index) => {
      const from = (path: string) => relative(join(probe, '..'), path).replace(/^(?!\.)/, './');
      const published = from(join(outDir, `${file}.js`));
      const source = from(join(ROOT, 'src', `${file}.js`));
      lines.push(`import type * as published${index} from '${published}';`);
      lines.push(`import type * as source${index} from '${source}';`);
      const declarationFile = sourceProgram.getSourceFile(join(outDir, `${file}.d.ts`))!;
      for (const statement of declarationFile.statements) {
        if (
          !ts.isTypeAliasDeclaration(statement) ||
          !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
        )
          continue;
        const name = statement.name.text;
        const [parameter, ...more] = statement.typeParameters ?? [];
        assert.equal(more.length, 0, `${name} has at most one type parameter`);
        if (parameter) {
          // A generic one, compared at each of its arguments.
          const keys = checker.typeToString(
            checker.getTypeFromTypeNode(parameter.constraint!),
            undefined,
            ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias,
          );
          lines.push(
            `export type _${compared} = Same<Equal<{ [K in ${keys}]: published${index}.${name}<K> }, { [K in ${keys}]: source${index}.${name}<K> }>>;`,
          );
        } else {
          lines.push(
            `export type _${compared} = Same<Equal<published${index}.${name}, source${index}.${name}>>;`,
          );
        }
        compared++;
      }
    });
    writeFileSync(probe, lines.join('\n') + '\n');
    {
      const program = ts.createProgram([probe], {
        strict: true,
        // `?: T` and `?: T | undefined` differ here, as in a partner's project that sets it.
        exactOptionalPropertyTypes: true,
        noEmit: true,
        skipLibCheck: true,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        types: [],
        experimentalDecorators: true,
        useDefineForClassFields: false,
      });
      const errors = program
        .getSemanticDiagnostics(program.getSourceFile(probe))
        .map(
          (d) =>
            `${d.start && program.getSourceFile(probe)!.getLineAndCharacterOfPosition(d.start).line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
        );
      assert.deepEqual(errors, [], lines.join('\n'));
    }
    assert.ok(compared >= 40, `${compared} types compared`);

    const types = readFileSync(join(outDir, 'client', 'types.d.ts'), 'utf8');
    assert.match(
      types,
      /\/\*\* E\.164, for example `\+447700900123`\. \*\/\n\s+phone\?: string \| undefined;/,
    );
    assert.match(types, /questions: QuestionItem\[\];/, 'a nested type by its name');
    const client = readFileSync(join(outDir, 'client', 'client.d.ts'), 'utf8');
    assert.match(
      client,
      /\/\*\* Operation 3: get a user account\. \*\/\n\s+readonly getUser: OperationMethod<"getUser", User>;/,
    );
  });
});
