/**
 * `rxkube-crd`: writes the CustomResourceDefinitions a module defines (with `defineCustomResource`
 * of `rxkube/crd`) as YAML, one file per CRD, the same bytes for the same definitions; or checks
 * that the files on disk are current (`--check`, for CI).
 * @packageDocumentation
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CrdDefinitionError, crdFiles, rbacFiles } from '../crd/definition/index.js';

const USAGE = `usage: rxkube-crd MODULE... [--out DIR] [--check]

Imports each MODULE (a .js file, or a .ts file when tsx is installed), finds the custom resources
its exports define with defineCustomResource, checks each CRD as kube-apiserver would check it, and
writes it to DIR/<plural>.<group>.yaml (one file per CRD; DIR defaults to the current directory).
Each RBAC declaration it exports (controllerRbac) goes to DIR/<name>.rbac.yaml: the ServiceAccount
and the least ClusterRole/Role and bindings for what the code declares.

options:
  --out DIR    where the files go (created if missing)
  --check      write nothing: exit 1 if a file is missing or differs from what would be written
  -h, --help   show this help`;

function fail(message: string, code = 2): never {
  process.stderr.write(`rxkube-crd: ${message}\n`);
  process.exit(code);
}

/** Imports a module; TypeScript through tsx's API, which loads it without registering a global hook. */
async function load(file: string): Promise<{ [name: string]: unknown }> {
  const url = pathToFileURL(resolve(file)).href;
  if (!/\.[mc]?ts$/.test(file)) return (await import(url)) as { [name: string]: unknown };
  // A computed specifier: bundlers leave it to Node, which finds the user's tsx.
  const specifier = 'tsx/esm/api';
  let tsx: { tsImport(specifier: string, parent: string): Promise<unknown> };
  try {
    tsx = (await import(specifier)) as typeof tsx;
  } catch {
    return fail(`${file} is TypeScript: install tsx (npm i -D tsx) or point rxkube-crd at the compiled .js`);
  }
  return (await tsx.tsImport(url, import.meta.url)) as { [name: string]: unknown };
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { out: { type: 'string' }, check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    fail(`${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals.length === 0) fail(`no module given\n\n${USAGE}`);
  const out = values.out ?? '.';
  const files = [];
  for (const file of positionals) {
    const exports = await load(file);
    const found = [...crdFiles(exports), ...rbacFiles(exports)];
    if (found.length === 0) fail(`${file} exports no custom resource (defineCustomResource) and no RBAC declaration (controllerRbac)`, 1);
    files.push(...found);
  }
  if (values.check) {
    const stale = files.filter((f) => !existsSync(join(out, f.name)) || readFileSync(join(out, f.name), 'utf8') !== f.content);
    for (const f of stale) process.stderr.write(`rxkube-crd: ${join(out, f.name)} is not current: run rxkube-crd without --check\n`);
    process.exit(stale.length === 0 ? 0 : 1);
  }
  mkdirSync(out, { recursive: true });
  for (const f of files) {
    writeFileSync(join(out, f.name), f.content);
    process.stdout.write(`wrote ${join(out, f.name)}\n`);
  }
}

main().catch((e: unknown) => {
  if (e instanceof CrdDefinitionError) fail(e.message, 1);
  fail(e instanceof Error ? (e.stack ?? e.message) : String(e), 1);
});
