type JsYaml = { loadAll(text: string): unknown[] };

/**
 * The documents of a YAML text, read with js-yaml, which @kubernetes/client-node depends on (rxkube
 * adds no YAML parser of its own). JSON is YAML, so a JSON text gives its one value.
 *
 * @example
 * ```ts
 * const [obj] = await yamlDocuments('kind: ConfigMap\nmetadata:\n  name: a\n');
 * ```
 */
export async function yamlDocuments(text: string): Promise<unknown[]> {
  // A computed specifier: the bundler leaves it to Node, which finds client-node's js-yaml.
  const specifier = 'js-yaml';
  const yaml = (await import(/* @vite-ignore */ specifier)) as JsYaml & { default?: JsYaml };
  return (yaml.default ?? yaml).loadAll(text);
}
