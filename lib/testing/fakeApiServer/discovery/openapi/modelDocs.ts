import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * What a client-node model's declaration file says beyond its `attributeTypeMap`: the class's
 * description, each property's description, and which properties are required (declared without `?`).
 *
 * @example
 * ```ts
 * const docs: ModelDocs = modelDocs('V1Container');
 * docs.required; // ['name']
 * ```
 */
export interface ModelDocs {
  readonly description?: string;
  readonly properties: ReadonlyMap<string, string>;
  readonly required: ReadonlyArray<string>;
}

const NONE: ModelDocs = Object.freeze({ properties: new Map<string, string>(), required: [] });

let modelsDir: string | null | undefined;

/** client-node's `dist/gen/models` folder, or null when it cannot be found (no descriptions then). */
function findModelsDir(): string | null {
  if (modelsDir !== undefined) return modelsDir;
  try {
    const pkg = createRequire(import.meta.url).resolve('@kubernetes/client-node/package.json');
    modelsDir = join(dirname(pkg), 'dist', 'gen', 'models');
  } catch {
    modelsDir = null;
  }
  return modelsDir;
}

// The generator escapes quotes in doc comments (`container\'s`); the text shown is unescaped.
const unescape = (s: string): string => s.replace(/\\(['"\\])/g, '$1');

const comment = (body: string): string =>
  unescape(
    body
      .split('\n')
      .map((l) => l.replace(/^\s*\*\s?/, '').trim())
      .filter((l) => l !== '')
      .join(' '),
  );

const cache = new Map<string, ModelDocs>();

/**
 * Reads the descriptions of client-node model `className` (e.g. `V1PodSpec`) from its `.d.ts` (the
 * OpenAPI generator writes the Kubernetes descriptions there); empty when the file is not found.
 */
export function modelDocs(className: string): ModelDocs {
  const hit = cache.get(className);
  if (hit) return hit;
  const dir = findModelsDir();
  let text: string;
  try {
    if (!dir || !/^\w+$/.test(className)) throw new Error('no models folder');
    text = readFileSync(join(dir, `${className}.d.ts`), 'utf8');
  } catch {
    cache.set(className, NONE);
    return NONE;
  }
  const classDoc = new RegExp(`/\\*\\*\\n((?:[^*]|\\*(?!/))*)\\*/\\s*export declare class ${className}\\b`).exec(text);
  const properties = new Map<string, string>();
  for (const m of text.matchAll(/\/\*\*\n((?:[^*]|\*(?!\/))*)\*\/\s*'([^']+)'\??:/g)) properties.set(m[2], comment(m[1]));
  const required = [...text.matchAll(/^\s*'([^']+)':/gm)].map((m) => m[1]);
  const docs: ModelDocs = { ...(classDoc ? { description: comment(classDoc[1]) } : {}), properties, required };
  cache.set(className, docs);
  return docs;
}
