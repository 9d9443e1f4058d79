#!/usr/bin/env node
/**
 * No dead export (issue 50): an export nobody imports hides which code is used and keeps dead code alive. For each
 * package, every import of its files is read with the TypeScript parser and resolved with the package's tsconfig;
 * a module that some file imports must have each of its exports imported somewhere (a test counts as a user). A
 * module nothing imports is an entry (server.ts, a CLI, a remote's exposed page, a package's index) and its exports
 * are the package's surface. An export its own file uses (a props type, an API object whose hooks are exported)
 * is not dead code and passes. `import * as`, `export * from` and `import()` count as using every export.
 * `node tools/dead-exports/index.mjs` lists the dead exports and exits 1 when there is one.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGES = [
  'shared-contracts',
  'gateway',
  'shell',
  'mfe-login',
  'mfe-mfa',
  'mfe-recovery',
  'mfe-devices',
  'mfe-tenant',
  'mfe-admin',
  'examples/payroll-portal',
  'e2e',
  'bench',
];
const ALL = Symbol('every export');

/** What a file exports (names) and what it uses of other modules (specifier → names, or ALL). */
function readModule(fileName) {
  const source = ts.createSourceFile(fileName, readFileSync(fileName, 'utf8'), ts.ScriptTarget.Latest, true);
  const exports = new Set();
  const uses = [];
  const use = (spec, name) => uses.push({ spec, name });
  const hasExport = (node) => ts.getModifiers?.(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const hasDefault = (node) => ts.getModifiers?.(node)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const spec = statement.moduleSpecifier.text;
      const clause = statement.importClause;
      if (!clause) use(spec, ALL);
      else {
        if (clause.name) use(spec, 'default');
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) use(spec, ALL);
        if (bindings && ts.isNamedImports(bindings))
          for (const el of bindings.elements) use(spec, (el.propertyName ?? el.name).text);
      }
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        const spec = statement.moduleSpecifier.text;
        if (!statement.exportClause || ts.isNamespaceExport(statement.exportClause)) use(spec, ALL);
        else for (const el of statement.exportClause.elements) use(spec, (el.propertyName ?? el.name).text);
      }
      if (statement.exportClause && ts.isNamedExports(statement.exportClause))
        for (const el of statement.exportClause.elements) exports.add(el.name.text);
    } else if (ts.isExportAssignment(statement)) {
      exports.add('default');
    } else if (hasExport(statement)) {
      if (hasDefault(statement)) exports.add('default');
      else if (ts.isVariableStatement(statement)) {
        for (const decl of statement.declarationList.declarations) {
          if (ts.isIdentifier(decl.name)) exports.add(decl.name.text);
          else
            for (const el of decl.name.elements ?? [])
              if (ts.isIdentifier(el.name)) exports.add(el.name.text);
        }
      } else if (statement.name && ts.isIdentifier(statement.name)) exports.add(statement.name.text);
    }
  }
  const visit = (node) => {
    if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const spec = node.argument.literal.text;
      if (node.qualifier)
        use(spec, ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.left.getText());
      else use(spec, ALL);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      use(node.arguments[0].text, ALL);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      ['mock', 'importActual'].includes(node.expression.name.text)
    ) {
      use(node.arguments[0].text, ALL);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  /** How often each name appears as an identifier in the file: more than once, the file itself uses it. */
  const counts = new Map();
  const count = (node) => {
    if (ts.isIdentifier(node)) counts.set(node.text, (counts.get(node.text) ?? 0) + 1);
    ts.forEachChild(node, count);
  };
  count(source);
  return { exports, uses, usedInFile: (name) => (counts.get(name) ?? 0) > 1 };
}

const dead = [];
for (const pkg of PACKAGES) {
  const configPath = path.join(ROOT, pkg, 'tsconfig.json');
  if (!existsSync(configPath)) continue;
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  if (!config) continue;
  const host = ts.createCompilerHost(config.options);
  const files = config.fileNames.map((f) => path.resolve(f)).filter((f) => !f.endsWith('.d.ts'));
  // A tool's config file (playwright.config.ts) is read by the tool: its default export is its surface.
  const isConfig = (f) => /\.config\.[cm]?[jt]s$/.test(f);
  const own = new Set(files);
  const modules = new Map(files.map((f) => [f, readModule(f)]));
  /** file → names used by other files (or ALL); a file absent here is imported by nobody. */
  const used = new Map();
  for (const [file, { uses }] of modules) {
    for (const { spec, name } of uses) {
      const resolved = ts.resolveModuleName(spec, file, config.options, host).resolvedModule;
      if (!resolved) continue;
      const target = path.resolve(resolved.resolvedFileName);
      if (!own.has(target) || target === file) continue;
      if (!used.has(target)) used.set(target, new Set());
      used.get(target).add(name);
    }
  }
  for (const [file, { exports, usedInFile }] of modules) {
    const names = used.get(file);
    if (!names || names.has(ALL) || isConfig(file)) continue;
    for (const name of exports) {
      if (!names.has(name) && !usedInFile(name)) dead.push(`${path.relative(ROOT, file)}: ${name}`);
    }
  }
}

if (dead.length > 0) {
  for (const line of dead) console.error(`dead export ${line}`);
  console.error(`dead-exports: ${dead.length} export(s) nobody imports; remove the export (or the code).`);
  process.exit(1);
}
console.log(
  `dead-exports: every export of an imported module is imported somewhere (${PACKAGES.length} packages).`,
);
