#!/usr/bin/env node
/**
 * No import cycle in any package, type-only imports included (issue 50). ESLint's `import-x/no-cycle` runs in lint
 * but never follows `import type` (the plugin skips them by design); a cycle of types still ties two modules
 * together and hides which way a dependency runs, so this check reads every import — `import`, `import type`,
 * `export … from`, `import('…')` in code and in types — resolves it with the package's own tsconfig, and fails on
 * every strongly connected group of more than one file (or a file importing itself).
 * `node tools/import-cycles/index.mjs` prints the cycles and exits 1 when there is one.
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

/** Every module specifier of a file: static, type-only, re-exports, dynamic `import()` and `import('…')` types. */
function specifiersOf(fileName, text) {
  const found = [];
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) found.push(arg.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression;
      if (ts.isStringLiteral(expr)) found.push(expr.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The import graph of one package: its own files only (a package's imports of others are not cycles of it). */
function graphOf(pkg) {
  const configPath = path.join(ROOT, pkg, 'tsconfig.json');
  if (!existsSync(configPath)) return new Map();
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  if (!config) return new Map();
  const own = new Set(config.fileNames.map((f) => path.resolve(f)));
  const host = ts.createCompilerHost(config.options);
  const graph = new Map();
  for (const file of own) {
    const edges = new Set();
    for (const spec of specifiersOf(file, readFileSync(file, 'utf8'))) {
      const resolved = ts.resolveModuleName(spec, file, config.options, host).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = path.resolve(resolved.resolvedFileName);
      if (own.has(target)) edges.add(target);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Tarjan's strongly connected components; a component of two or more files (or a self-import) is a cycle. */
function cyclesOf(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const strongConnect = (v) => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), indices.get(w)));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) strongConnect(v);
  return cycles;
}

let failed = 0;
for (const pkg of PACKAGES) {
  for (const cycle of cyclesOf(graphOf(pkg))) {
    failed += 1;
    console.error(`import cycle in ${pkg} (type-only imports count):`);
    for (const file of cycle) console.error(`  ${path.relative(ROOT, file)}`);
  }
}
if (failed > 0) {
  console.error(`import-cycles: ${failed} cycle(s); move what both sides need into a module of its own.`);
  process.exit(1);
}
console.log(`import-cycles: no import cycle in ${PACKAGES.length} packages (type-only imports included).`);
