/**
 * An RFC 6901 JSON pointer from a path of keys and indices: `['metadata', 'labels', 'app.kubernetes.io/name']`
 * becomes `/metadata/labels/app.kubernetes.io~1name` (`~` is escaped as `~0`, `/` as `~1`).
 *
 * @example
 * ```ts
 * toJsonPointer(['metadata', 'annotations', 'a/b~c']); // '/metadata/annotations/a~1b~0c'
 * toJsonPointer([]);                                    // '' (the whole document)
 * ```
 */
export function toJsonPointer(path: ReadonlyArray<string | number>): string {
  // `~` first: escaping `/` first would turn its `~1` into `~01`.
  return path.map((seg) => '/' + String(seg).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
