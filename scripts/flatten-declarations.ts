/**
 * Part of `npm run build`, after `tsc -p tsconfig.build.json`: makes the type declarations that the
 * browser entries reach (`consult-elements`, `/define`, `/client`, `/react`) plain declarations,
 * free of zod. The wire types are inferred from zod schemas in the source (src/client/types.ts,
 * src/client/browser-types.ts), and tsc writes them as `z.infer<typeof schemas.X>`; zod is an
 * optional peer that a browser-only install leaves out, so a partner's TypeScript would fail to
 * resolve them (or, with `skipLibCheck`, type every view as `any`).
 *
 * Each declaration that uses zod or a server module (the schemas) is written out as the type the
 * checker infers for it, fields with their comments (from the schemas' JSDoc), a nested type by its
 * exported name where it is one. A generic one over a union of names becomes a lookup table.
 * The server entries keep their own declarations, which may use zod, their peer dependency.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The package entries a browser-only install uses (package.json `exports`). */
export const BROWSER_ENTRIES = ['.', './define', './client', './react'];

/** Declarations of modules that only a server loads; a browser's declarations must not import them. */
const SERVER_FOLDERS = ['server', 'proxy', 'sandbox', 'admin', 'node-entries'];

const isZod = (specifier: string) => specifier === 'zod' || specifier.startsWith('zod/');

/** The `types` file of each browser entry, from package.json, under `outDir`. */
export function browserEntryDeclarations(outDir: string, packageJson = 'package.json'): string[] {
  const { exports } = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    exports: Record<string, { types: string }>;
  };
  return BROWSER_ENTRIES.map((entry) => {
    const types = exports[entry]?.types;
    if (!types?.startsWith('./dist/')) throw new Error(`package.json: ${entry} has no types in dist`);
    return resolve(outDir, types.slice('./dist/'.length));
  });
}

/** Every module specifier a declaration file names: imports, exports, `import("…")` types, references. */
export function moduleSpecifiers(file: ts.SourceFile): string[] {
  const found = [
    ...file.referencedFiles.map(({ fileName }) => (/^\.{0,2}\//.test(fileName) ? fileName : `./${fileName}`)),
    ...file.typeReferenceDirectives.map(({ fileName }) => fileName),
  ];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) found.push(literal.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) found.push(expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The declaration file a relative specifier (`./x.js`) of `from` names. */
function declarationOf(from: string, specifier: string): string {
  const target = resolve(dirname(from), specifier);
  return target.replace(/\.(m|c)?js$/, '.d.$1ts').replace(/(?<!\.d\.(m|c)?ts)$/, '.d.ts');
}

function parse(path: string, text = readFileSync(path, 'utf8')): ts.SourceFile {
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
}

/**
 * The declaration files reachable from `entries` by relative imports, each with the packages it
 * imports. `stopAt` files are listed but not followed.
 */
export function declarationGraph(
  entries: string[],
  stopAt: (file: string) => boolean = () => false,
): Map<string, { files: string[]; packages: string[] }> {
  const graph = new Map<string, { files: string[]; packages: string[] }>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop();
    if (file === undefined || graph.has(file)) continue;
    const specifiers = moduleSpecifiers(parse(file));
    const files = specifiers.filter((s) => s.startsWith('.')).map((s) => declarationOf(file, s));
    graph.set(file, { files, packages: specifiers.filter((s) => !s.startsWith('.')) });
    if (!stopAt(file)) queue.push(...files);
  }
  return graph;
}

/** The files reachable from the browser entries that import zod, with the chain that reaches each. */
export function zodImportsFromBrowserEntries(outDir: string, packageJson?: string): string[] {
  const entries = browserEntryDeclarations(outDir, packageJson);
  const graph = declarationGraph(entries);
  const problems: string[] = [];
  for (const [file, { packages }] of graph) {
    for (const name of packages.filter(isZod))
      problems.push(`${chain(graph, entries, file, outDir)} imports ${name}`);
  }
  return problems;
}

/** How an entry reaches `file`: `index.d.ts → client/index.d.ts → …`. */
function chain(
  graph: Map<string, { files: string[] }>,
  entries: string[],
  file: string,
  outDir: string,
): string {
  const previous = new Map<string, string>();
  const queue = [...entries];
  const seen = new Set(entries);
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    if (current === file) break;
    for (const next of graph.get(current)?.files ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      previous.set(next, current);
      queue.push(next);
    }
  }
  const path = [file];
  for (let before = previous.get(file); before !== undefined; before = previous.get(before))
    path.unshift(before);
  return path.map((p) => relative(outDir, p)).join(' → ');
}

interface Flattened {
  file: string;
  text: string;
}

/**
 * Rewrites, in `outDir`, the declaration files reachable from the browser entries that import zod
 * or a server module; answers the files it rewrote. Fails if a browser entry still reaches zod.
 * The types are read from the source they were emitted from (under `root`), whose schemas still
 * carry their fields' comments, with tsconfig.build.json's options.
 */
export function flattenDeclarations(
  outDir: string,
  root = fileURLToPath(new URL('../', import.meta.url)),
): string[] {
  outDir = resolve(outDir);
  const packageJson = join(root, 'package.json');
  const sourceDir = join(root, 'src');
  const isServer = (file: string) =>
    [outDir, sourceDir].some((dir) =>
      SERVER_FOLDERS.some((folder) => file.startsWith(join(dir, folder) + '/')),
    );
  const entries = browserEntryDeclarations(outDir, packageJson);
  const graph = declarationGraph(entries, isServer);
  const toRewrite = [...graph]
    .filter(
      ([file, { files, packages }]) => !isServer(file) && (packages.some(isZod) || files.some(isServer)),
    )
    .map(([file]) => file)
    .sort();
  if (toRewrite.length === 0) return [];

  const flattened = rewrite({
    files: toRewrite,
    sourceOf: (file) => join(sourceDir, relative(outDir, file).replace(/\.d\.ts$/, '.ts')),
    project: join(root, 'tsconfig.build.json'),
    isForeign: (file) => isServer(file) || /[\\/]node_modules[\\/]zod[\\/]/.test(file),
    importsForeign: (specifier, from) =>
      specifier.startsWith('.') ? isServer(declarationOf(from, specifier)) : isZod(specifier),
    sideOf: (specifier, from) =>
      specifier.startsWith('.')
        ? relative(outDir, declarationOf(from, specifier)).split(/[\\/]/)[0]
        : undefined,
  });
  for (const { file, text } of flattened) writeFileSync(file, text);

  const left = zodImportsFromBrowserEntries(outDir, packageJson);
  if (left.length) throw new Error(`The browser entries' declarations still reach zod:\n${left.join('\n')}`);
  return toRewrite;
}

const PROBE = '__flattenedLookup_';

/** A generic type alias over one type parameter: it becomes a table of its instances. */
function lookupParameter(statement: ts.TypeAliasDeclaration): ts.TypeParameterDeclaration | undefined {
  const [parameter, ...more] = statement.typeParameters ?? [];
  return parameter?.constraint && more.length === 0 ? parameter : undefined;
}

interface Rewrite {
  /** The declaration files to rewrite. */
  files: string[];
  /** The source file a declaration file was emitted from. */
  sourceOf: (declarationFile: string) => string;
  /** The tsconfig the declarations were built with. */
  project: string;
  /** Declared in zod or a server module: a type from there is written out, never named. */
  isForeign: (file: string) => boolean;
  /** An import of zod or of a server module. */
  importsForeign: (specifier: string, from: string) => boolean;
  /** The folder (`server`, `proxy`) a relative import names. */
  sideOf: (specifier: string, from: string) => string | undefined;
}

function rewrite({ files, sourceOf, project, isForeign, importsForeign, sideOf }: Rewrite): Flattened[] {
  const plans = new Map(files.map((file) => [file, plan(parse(file), importsForeign)]));
  const planOf = (file: string) => must(plans.get(file), file);
  // Each generic alias to flatten gets a probe in its source file: a mapped type of its instances.
  const texts = new Map<string, string>();
  for (const file of files) {
    const probes = planOf(file)
      .statements.map((statement) => {
        if (!statement.typeParameters) return '';
        const parameter = lookupParameter(statement);
        if (!parameter?.constraint) throw new Error(`${file}: cannot flatten generic ${statement.name.text}`);
        const name = parameter.name.text;
        return `\nexport type ${PROBE}${statement.name.text} = { [${name} in ${parameter.constraint.getText()}]: ${statement.name.text}<${name}> };`;
      })
      .join('');
    texts.set(sourceOf(file), readFileSync(sourceOf(file), 'utf8') + probes);
  }

  const config = must(
    ts.getParsedCommandLineOfConfigFile(
      project,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, ' '));
        },
      },
    ),
    project,
  );
  const options: ts.CompilerOptions = {
    ...config.options,
    noEmit: true,
    declaration: false,
    skipLibCheck: true,
    // An optional field's own type, told apart from the `undefined` that optionality adds.
    exactOptionalPropertyTypes: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => texts.get(resolve(name)) ?? readFile(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const text = texts.get(resolve(name));
    return text === undefined
      ? getSourceFile(name, language, ...rest)
      : ts.createSourceFile(name, text, language, true);
  };
  const program = ts.createProgram([...texts.keys()], options, host);
  const checker = program.getTypeChecker();
  const sourceFile = (file: string) => must(program.getSourceFile(sourceOf(file)), sourceOf(file));
  const aliasIn = (source: ts.SourceFile, name: string) => {
    const found = source.statements.find(
      (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === name,
    );
    if (!found) throw new Error(`${source.fileName} has no type ${name}`);
    return found;
  };

  // The names a nested type may be written as: the exported types of the files being flattened,
  // but not one defined by way of a flattened one (it would name itself).
  const flattenedNames = new Set(
    files.flatMap((file) => planOf(file).statements.map((s) => `${sourceOf(file)}#${s.name.text}`)),
  );
  const mentionsFlattened = (declaration: ts.TypeAliasDeclaration) => {
    const file = declaration.getSourceFile().fileName;
    const visit = (node: ts.Node): boolean =>
      (ts.isIdentifier(node) && node !== declaration.name && flattenedNames.has(`${file}#${node.text}`)) ||
      !!ts.forEachChild(node, (child) => visit(child) || undefined);
    return !flattenedNames.has(`${file}#${declaration.name.text}`) && visit(declaration);
  };
  const exported = new Map<string, { name: string; type: ts.Type; from: string }[]>();
  for (const file of files) {
    const source = sourceFile(file);
    const named = checker
      .getExportsOfModule(must(checker.getSymbolAtLocation(source), source.fileName))
      .filter((s) => s.flags & ts.SymbolFlags.TypeAlias && !s.name.startsWith(PROBE))
      .map((s) => s.declarations?.[0])
      .filter((d): d is ts.TypeAliasDeclaration => !!d && ts.isTypeAliasDeclaration(d) && !d.typeParameters)
      .filter((d) => !mentionsFlattened(d))
      .map((d) => ({ name: d.name.text, type: checker.getTypeFromTypeNode(d.type), from: source.fileName }));
    exported.set(file, named);
  }
  const isWrittenOut = (declaration: ts.Declaration) =>
    isForeign(declaration.getSourceFile().fileName) ||
    (ts.isTypeAliasDeclaration(declaration) &&
      flattenedNames.has(`${declaration.getSourceFile().fileName}#${declaration.name.text}`));
  // A file names nested types by the types of the files flattened from the same side (the
  // service's schemas, or the proxy's views), its own first: the views never name the service's types.
  const sides = (file: string) =>
    new Set(planOf(file).imports.map((i) => sideOf((i.moduleSpecifier as ts.StringLiteral).text, file)));
  const sameSide = (a: string, b: string) => [...sides(a)].some((side) => side && sides(b).has(side));

  return files.map((file) => {
    const source = sourceFile(file);
    const nameFiles = [file, ...files.filter((other) => other !== file && sameSide(file, other))];
    const printer = new TypePrinter(
      checker,
      source,
      nameFiles.flatMap((f) => exported.get(f) ?? []),
      isWrittenOut,
    );
    const typeOf = (name: string) => {
      const type = checker.getTypeFromTypeNode(aliasIn(source, name).type);
      if (type.flags & ts.TypeFlags.Any) throw new Error(`${source.fileName}: ${name} is any`);
      return type;
    };
    return { file, text: apply(parse(file), planOf(file), printer, typeOf) };
  });
}

/** The imports to drop (of zod or a server module) and the statements that use them. */
function plan(source: ts.SourceFile, importsForeign: (specifier: string, from: string) => boolean) {
  const imports = source.statements.filter(
    (s): s is ts.ImportDeclaration =>
      ts.isImportDeclaration(s) &&
      ts.isStringLiteral(s.moduleSpecifier) &&
      importsForeign(s.moduleSpecifier.text, source.fileName),
  );
  const names = new Set<string>();
  for (const declaration of imports) {
    const clause = declaration.importClause;
    if (clause?.name) names.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add(e.name.text);
  }
  const uses = (node: ts.Node): boolean =>
    (ts.isIdentifier(node) && names.has(node.text)) ||
    !!ts.forEachChild(node, (child) => uses(child) || undefined);
  const statements = source.statements.filter((s) => !imports.includes(s as ts.ImportDeclaration) && uses(s));
  for (const statement of statements) {
    if (!ts.isTypeAliasDeclaration(statement)) {
      throw new Error(`${source.fileName}: ${ts.SyntaxKind[statement.kind]} uses zod or a server module`);
    }
  }
  return { imports, statements: statements as ts.TypeAliasDeclaration[] };
}

/** The file's text with the dropped imports gone, the statements flattened and the new imports added. */
function apply(
  source: ts.SourceFile,
  { imports, statements }: ReturnType<typeof plan>,
  printer: TypePrinter,
  typeOf: (name: string) => ts.Type,
): string {
  const edits: { start: number; end: number; text: string }[] = [];
  let privateDeclarations = false;
  for (const statement of statements) {
    const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      ? 'export '
      : '';
    const name = statement.name.text;
    let text: string;
    if (statement.typeParameters) {
      // `Name<N extends Keys> = NameTable[N]`, with the table of every instance beside it.
      const parameter = must(lookupParameter(statement), name);
      const probe = typeOf(`${PROBE}${name}`);
      const table = `${name}Table`;
      text =
        `${exported}type ${name}<${parameter.getText()}> = ${table}[${parameter.name.text}];\n` +
        `/** {@link ${name}} of each name. */\ninterface ${table} ${printer.print(probe, '', true)}`;
      privateDeclarations = true;
    } else {
      text = `${exported}type ${name} = ${printer.print(typeOf(name), '', true)};`;
    }
    edits.push({ start: statement.getStart(), end: statement.end, text });
  }
  const added = printer.importsToAdd();
  imports.forEach((declaration, index) => {
    edits.push({ start: declaration.getStart(), end: declaration.end + 1, text: index === 0 ? added : '' });
  });
  let text = source.text;
  for (const { start, end, text: replacement } of edits.sort((a, b) => b.start - a.start)) {
    text = text.slice(0, start) + replacement + text.slice(end);
  }
  if (privateDeclarations && !/^export \{\};$/m.test(text))
    text += text.endsWith('\n') ? 'export {};\n' : '\nexport {};\n';
  return text;
}

/** Writes a type out structurally, in the scope of one declaration file. */
class TypePrinter {
  private readonly imports = new Map<string, Set<string>>();
  /** Off while the named types' shapes are printed: only what the file's declarations use is imported. */
  private importing = false;
  private readonly named: { name: string; from: string; shape: string }[];

  constructor(
    readonly checker: ts.TypeChecker,
    private readonly source: ts.SourceFile,
    names: { name: string; type: ts.Type; from: string }[],
    private readonly isWrittenOut: (declaration: ts.Declaration) => boolean,
  ) {
    this.named = names
      .filter(({ type }) => type.isUnion() || this.checker.getPropertiesOfType(type).length > 0)
      .map(({ name, type, from }) => ({ name, from, shape: this.print(type, '', true, false) }));
    this.importing = true;
  }

  /** `import type { … } from '…';` lines for the names the printed types use. */
  importsToAdd(): string {
    return [...this.imports]
      .map(([from, names]) => `import type { ${[...names].sort().join(', ')} } from '${from}';\n`)
      .join('');
  }

  /**
   * `type` written out. `top`: the declaration's own type, never written as a name; `useNames`:
   * write a nested type that has an exported name by that name.
   */
  print(type: ts.Type, indent: string, top = false, useNames = true): string {
    if (useNames && !top) {
      const name = this.nameOf(type);
      if (name) return name;
    }
    if (type.flags & ts.TypeFlags.Any) {
      throw new Error(
        `${this.source.fileName}: a type flattens to any (is zod installed where the build runs?)`,
      );
    }
    if (type.isUnion()) return this.printUnion(type.types, indent, useNames);
    if (type.aliasSymbol && !this.foreign(type.aliasSymbol) && !top) {
      const args = (type.aliasTypeArguments ?? []).map((arg) => this.print(arg, indent, false, useNames));
      return this.reference(type.aliasSymbol) + (args.length ? `<${args.join(', ')}>` : '');
    }
    if (this.checker.isArrayType(type)) {
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      const printed = this.print(must(element, 'an array element'), indent, false, useNames);
      const readonly = type.symbol?.name === 'ReadonlyArray' ? 'readonly ' : '';
      return `${readonly}${/[|&]|=>/.test(printed) && !/^[{[]/.test(printed) ? `(${printed})` : printed}[]`;
    }
    if (this.checker.isTupleType(type)) {
      const target = (type as ts.TypeReference).target as ts.TupleType;
      const elements = this.checker
        .getTypeArguments(type as ts.TypeReference)
        .map((e) => this.print(e, indent, false, useNames));
      return `${target.readonly ? 'readonly ' : ''}[${elements.join(', ')}]`;
    }
    if (type.flags & ts.TypeFlags.Object) {
      const objectFlags = (type as ts.ObjectType).objectFlags;
      const symbol = type.getSymbol();
      const isNamed =
        objectFlags & (ts.ObjectFlags.Interface | ts.ObjectFlags.Reference | ts.ObjectFlags.Class);
      if (isNamed && symbol && !this.foreign(symbol) && !top) {
        const args = this.checker
          .getTypeArguments(type as ts.TypeReference)
          .map((a) => this.print(a, indent, false, useNames));
        return this.reference(symbol) + (args.length ? `<${args.join(', ')}>` : '');
      }
      if (type.getCallSignatures().length || type.getConstructSignatures().length) {
        throw new Error(`${this.source.fileName}: cannot flatten ${this.checker.typeToString(type)}`);
      }
      return this.printObject(type, indent, useNames);
    }
    return this.checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  }

  private printUnion(members: ts.Type[], indent: string, useNames: boolean): string {
    const isBoolean = (t: ts.Type) => !!(t.flags & ts.TypeFlags.BooleanLiteral);
    const nullish = members.filter((t) => t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null));
    const rest = members.filter((t) => !nullish.includes(t));
    const printed: string[] = [];
    const named =
      useNames && nullish.length && rest.length > 1
        ? this.nameOfShape(this.printUnion(rest, indent, false))
        : undefined;
    if (named) printed.push(named);
    else {
      let booleanDone = false;
      for (const member of rest) {
        if (isBoolean(member)) {
          if (rest.filter(isBoolean).length === 2) {
            if (!booleanDone) printed.push('boolean');
            booleanDone = true;
            continue;
          }
        }
        const text = this.print(member, indent, false, useNames);
        printed.push(/=>/.test(text) ? `(${text})` : text);
      }
    }
    for (const member of nullish) printed.push(this.checker.typeToString(member));
    return printed.join(' | ');
  }

  private printObject(type: ts.Type, indent: string, useNames: boolean): string {
    const inner = indent + '    ';
    const lines: string[] = [];
    for (const info of this.checker.getIndexInfosOfType(type)) {
      const key = this.print(info.keyType, inner, false, useNames);
      lines.push(
        `${inner}${info.isReadonly ? 'readonly ' : ''}[key: ${key}]: ${this.print(info.type, inner, false, useNames)};`,
      );
    }
    for (const property of this.checker.getPropertiesOfType(type)) {
      const optional = !!(property.flags & ts.SymbolFlags.Optional);
      const propertyType = this.checker.getTypeOfSymbol(property);
      if (optional && propertyType.isUnion()) {
        // Optionality's own `undefined` (not the `undefined` the field's type may hold) is the `?`.
        const undefinedType = this.checker.getUndefinedType();
        const own = propertyType.types.filter(
          (t) => !(t.flags & ts.TypeFlags.Undefined) || t === undefinedType,
        );
        if (own.length < propertyType.types.length) {
          lines.push(
            this.comment(property, inner) +
              `${inner}${isReadonly(property) ? 'readonly ' : ''}${propertyName(property)}?: ${this.printMembers(own, inner, useNames)};`,
          );
          continue;
        }
      }
      lines.push(
        this.comment(property, inner) +
          `${inner}${isReadonly(property) ? 'readonly ' : ''}${propertyName(property)}${optional ? '?' : ''}: ${this.print(propertyType, inner, false, useNames)};`,
      );
    }
    return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : '{}';
  }

  /** The union of `members` (written as a union type of them would be). */
  private printMembers(members: ts.Type[], indent: string, useNames: boolean): string {
    if (members.length === 1) return this.print(must(members[0], 'a member'), indent, false, useNames);
    return (
      (useNames && this.nameOfShape(this.printUnion(members, '', false))) ||
      this.printUnion(members, indent, useNames)
    );
  }

  /** The property's JSDoc, as the schema's field comment or the table's row has it. */
  private comment(property: ts.Symbol, indent: string): string {
    const text = ts.displayPartsToString(property.getDocumentationComment(this.checker)).trim();
    const tags = property
      .getJsDocTags(this.checker)
      .map((tag) => `@${tag.name}${tag.text ? ' ' + ts.displayPartsToString(tag.text) : ''}`);
    const lines = [...(text ? text.split('\n') : []), ...tags];
    if (!lines.length) return '';
    if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
    return `${indent}/**\n${lines.map((line) => `${indent} *${line ? ' ' + line : ''}`).join('\n')}\n${indent} */\n`;
  }

  private nameOf(type: ts.Type): string | undefined {
    if (!type.isUnion() && this.checker.getPropertiesOfType(type).length === 0) return undefined;
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) return undefined;
    return this.nameOfShape(this.print(type, '', true, false));
  }

  private nameOfShape(shape: string): string | undefined {
    const found = this.named?.find((n) => n.shape === shape);
    if (!found) return undefined;
    if (found.from !== this.source.fileName) this.addImport(found.from, found.name);
    return found.name;
  }

  /** Declared in zod, a server module or a file being flattened: written out, never named. */
  private foreign(symbol: ts.Symbol): boolean {
    return (symbol.declarations ?? []).some((d) => this.isWrittenOut(d));
  }

  /** The name `symbol` has in this file, importing it if the file does not see it yet. */
  private reference(symbol: ts.Symbol): string {
    const declaration = symbol.declarations?.[0];
    const declaredIn = declaration?.getSourceFile();
    const inScope = this.checker
      // From inside the file, whose scope holds its imports (the file's own scope is its exports).
      .getSymbolsInScope(
        this.source.statements.at(-1) ?? this.source,
        ts.SymbolFlags.Type | ts.SymbolFlags.Alias,
      )
      .find((s) => s.name === symbol.name);
    const resolved =
      inScope && inScope.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(inScope) : inScope;
    if (resolved === symbol || !declaredIn || declaredIn.hasNoDefaultLib || this.isLib(declaredIn))
      return symbol.name;
    if (inScope) throw new Error(`${this.source.fileName}: ${symbol.name} would name another type here`);
    this.addImport(declaredIn.fileName, symbol.name);
    return symbol.name;
  }

  private isLib(file: ts.SourceFile): boolean {
    return /[\\/]typescript[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts$/.test(file.fileName);
  }

  private addImport(declarationFile: string, name: string) {
    if (!this.importing) return;
    if (/[\\/]node_modules[\\/]/.test(declarationFile)) {
      throw new Error(`${this.source.fileName}: would import ${name} from ${declarationFile}`);
    }
    let path = relative(dirname(this.source.fileName), declarationFile).replace(/(\.d)?\.ts$/, '.js');
    if (!path.startsWith('.')) path = `./${path}`;
    const names = this.imports.get(path) ?? new Set();
    names.add(name);
    this.imports.set(path, names);
  }
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what}: not found`);
  return value;
}

function propertyName(property: ts.Symbol): string {
  return /^[A-Za-z_$][\w$]*$/.test(property.name) ? property.name : JSON.stringify(property.name);
}

/** `readonly` of a property, also one a mapped type made (the checker keeps that in internal flags). */
function isReadonly(property: ts.Symbol): boolean {
  const getCheckFlags = (ts as unknown as { getCheckFlags?: (s: ts.Symbol) => number }).getCheckFlags;
  const READONLY = 8; // ts.CheckFlags.Readonly
  if (property.flags & ts.SymbolFlags.Transient && getCheckFlags)
    return (getCheckFlags(property) & READONLY) !== 0;
  return (property.declarations ?? []).some(
    (d) => (ts.getCombinedModifierFlags(d as ts.Declaration) & ts.ModifierFlags.Readonly) !== 0,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ?? 'dist';
  const rewritten = flattenDeclarations(outDir);
  console.log(`flattened ${rewritten.map((file) => relative(outDir, file)).join(', ') || 'nothing'}`);
}
