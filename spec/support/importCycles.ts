// Import circles among the TypeScript files under a folder: every relative import and re-export
// (type-only ones included: a circle of types still ties two files together), read with
// TypeScript's own pre-processor, and the strongly connected components of that graph (Tarjan).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The files each file under `root` imports (relative imports only, `.js` read as `.ts`). */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of filesUnder(resolve(root))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    const targets = importedFiles
      .map((f) => f.fileName)
      .filter((name) => name.startsWith('./') || name.startsWith('../'))
      .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')));
    graph.set(file, targets);
  }
  return graph;
}

/**
 * Each import circle among the files under `root` (a list of the files in it, relative to `root`,
 * sorted), leaving out files whose relative path matches `exclude`.
 */
export function importCycles(root: string, exclude?: RegExp): string[][] {
  const graph = importGraph(root);
  const kept = (f: string) => graph.has(f) && !(exclude?.test(relative(root, f)) ?? false);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of (graph.get(v) ?? []).filter(kept)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(relative(root, w));
    } while (w !== v);
    const selfImport = (graph.get(v) ?? []).includes(v);
    if (component.length > 1 || selfImport) cycles.push(component.sort());
  };
  for (const file of [...graph.keys()].filter(kept).sort()) if (!index.has(file)) visit(file);
  return cycles;
}
