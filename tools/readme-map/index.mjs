#!/usr/bin/env node
/**
 * The README map is checked (issue 50): every row of the "Where things are" tables of gateway/README.md (and of the
 * root README.md, should it grow one) names files that exist, and each call of the row is routed in the row's
 * router file, named by the row's step, and called by the row's page (its feature folder or the remote's
 * features/shared/). Paths are under gateway/src/ unless they start with a package's folder.
 * `node tools/readme-map/index.mjs` prints each wrong row and exits 1 when there is one. No dependencies.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOCS = ['gateway/README.md', 'README.md'];
const PACKAGE_FOLDERS = /^(mfe-[a-z]+|shell|shared-contracts|gateway|e2e|examples|bench|tools)\//;

/** The sections called "Where things are": from that heading to the next heading of the same or a higher level. */
function mapSections(text) {
  const lines = text.split('\n');
  const sections = [];
  for (let i = 0; i < lines.length; i += 1) {
    const heading = /^(#+)\s+Where things are\b/.exec(lines[i]);
    if (!heading) continue;
    const level = heading[1].length;
    let end = i + 1;
    while (end < lines.length && !(/^(#+)\s/.exec(lines[end]) && /^(#+)/.exec(lines[end])[1].length <= level))
      end += 1;
    sections.push({ start: i + 1, lines: lines.slice(i + 1, end) });
    i = end - 1;
  }
  return sections;
}

const cells = (line) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

/** The tables of a section: header cells and rows (with their line numbers). */
function tablesOf(section) {
  const tables = [];
  let current;
  section.lines.forEach((line, index) => {
    if (!line.trim().startsWith('|')) {
      current = undefined;
      return;
    }
    if (!current) {
      current = { header: cells(line), rows: [] };
      tables.push(current);
    } else if (!/^\|[\s:|-]+\|$/.test(line.trim())) {
      current.rows.push({ cells: cells(line), line: section.start + index + 1 });
    }
  });
  return tables;
}

const pathsIn = (cell) => [...cell.matchAll(/`([^`]+\.[a-z]+)`/g)].map((m) => m[1]);
const resolvePath = (p) => path.join(ROOT, PACKAGE_FOLDERS.test(p) ? p : path.join('gateway/src', p));
/** "GeneratePin, PinReference" → both; "SendOTP (no username)" → SendOTP. */
const callsIn = (cell) =>
  cell
    .replace(/\([^)]*\)/g, '')
    .split(',')
    .map((c) => c.replace(/`/g, '').trim())
    .filter(Boolean);
/** Code without its comments, so a call named only in a comment is not taken as routed. */
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A call is routed when the code names it as a route path ('/Call'), as a key of a table of routes (Call: …) or as
 * the first argument of the security centre's `call('Call', …)`.
 */
const routes = (code, call) =>
  new RegExp(
    `['"\`]/${escape(call)}['"\`]|^\\s*['"]?${escape(call)}['"]?\\s*:|\\bcall\\(\\s*['"]${escape(call)}['"]`,
    'm',
  ).test(code);

/**
 * The code a page runs its calls through: the files of its feature folder and of the remote's `features/shared/`
 * (a feature imports only those two, by the lint zones), tests left out.
 */
function sourceOfFeature(page) {
  const feature = path.dirname(page);
  const folders = [feature, path.join(path.dirname(feature), 'shared')].filter((f) => existsSync(f));
  return folders
    .flatMap((folder) =>
      readdirSync(folder)
        .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
        .map((name) => readFileSync(path.join(folder, name), 'utf8')),
    )
    .join('\n');
}

const problems = [];
let rowsChecked = 0;
for (const doc of DOCS) {
  const file = path.join(ROOT, doc);
  if (!existsSync(file)) continue;
  for (const section of mapSections(readFileSync(file, 'utf8'))) {
    for (const table of tablesOf(section)) {
      const column = (name) => table.header.findIndex((h) => h.toLowerCase() === name);
      const callColumn = column('call');
      const routerColumn = column('router');
      const stepColumn = column('step');
      const pageColumn = column('page');
      for (const row of table.rows) {
        rowsChecked += 1;
        const where = `${doc}:${row.line}`;
        for (const cell of row.cells) {
          for (const p of pathsIn(cell)) {
            if (!existsSync(resolvePath(p))) problems.push(`${where}: ${p} does not exist`);
          }
        }
        if (callColumn < 0) continue;
        const calls = callsIn(row.cells[callColumn] ?? '');
        const [router] = routerColumn < 0 ? [] : pathsIn(row.cells[routerColumn] ?? '');
        if (router && existsSync(resolvePath(router))) {
          const code = withoutComments(readFileSync(resolvePath(router), 'utf8'));
          for (const call of calls) {
            if (!routes(code, call)) problems.push(`${where}: ${call} is not routed in ${router}`);
          }
        }
        const [page] = pageColumn < 0 ? [] : pathsIn(row.cells[pageColumn] ?? '');
        if (page && existsSync(resolvePath(page))) {
          const source = sourceOfFeature(resolvePath(page));
          for (const call of calls) {
            if (!new RegExp(`['"\`/]${escape(call)}['"\`?]`).test(source))
              problems.push(
                `${where}: ${page} (its feature folder and features/shared) does not call ${call}`,
              );
          }
        }
        const [step] = stepColumn < 0 ? [] : pathsIn(row.cells[stepColumn] ?? '');
        if (step && existsSync(resolvePath(step))) {
          const text = readFileSync(resolvePath(step), 'utf8');
          for (const call of calls) {
            if (!new RegExp(`\\b${escape(call)}\\b`).test(text))
              problems.push(`${where}: ${step} does not name ${call}`);
          }
        }
      }
    }
  }
}

if (rowsChecked === 0) problems.push('no row of a "Where things are" table found: the check reads nothing');
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`readme-map: ${problems.length} wrong cell(s) in the "Where things are" tables.`);
  process.exit(1);
}
console.log(
  `readme-map: ${rowsChecked} rows of "Where things are" name files that exist and calls routed there.`,
);
