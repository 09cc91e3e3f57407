// Column definitions the printers share (kube's printers.go and rest/table.go). Descriptions are
// kube's where it writes them out; columns that kube describes with a field's OpenAPI documentation
// carry an empty description here (nothing prints descriptions; `kubectl get` shows names).
import type { TableColumnDefinition } from './table.js';

/** ObjectMeta's documentation of `name`, the Name column's description. */
const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/** ObjectMeta's documentation of `creationTimestamp`, the Age and Created At columns' description. */
const CREATED_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/**
 * A column: `type` string unless given, priority 0 (shown without `-o wide`) unless given.
 *
 * @example
 * ```ts
 * column('Restarts', 'string', 'The number of times the containers in this pod have been restarted.');
 * ```
 */
export const column = (name: string, type = 'string', description = '', priority = 0, format = ''): TableColumnDefinition => ({
  name,
  type,
  format,
  description,
  priority,
});

/**
 * A priority-1 column (`kubectl get -o wide`).
 *
 * @example
 * ```ts
 * wide('IP');
 * ```
 */
export const wide = (name: string, type = 'string', description = ''): TableColumnDefinition => column(name, type, description, 1);

/**
 * The Name column every printer starts with (events keep theirs last, wide).
 *
 * @example
 * ```ts
 * const columns = [nameColumn, ageColumn];
 * ```
 */
export const nameColumn: TableColumnDefinition = column('Name', 'string', NAME_DOC, 0, 'name');

/**
 * The Age column (a string such as `5m`).
 *
 * @example
 * ```ts
 * const columns = [nameColumn, ageColumn];
 * ```
 */
export const ageColumn: TableColumnDefinition = column('Age', 'string', CREATED_DOC);

/**
 * The default convertor's `Created At` column (type `date`, an RFC 3339 time).
 *
 * @example
 * ```ts
 * const columns = [nameColumn, createdAtColumn];
 * ```
 */
export const createdAtColumn: TableColumnDefinition = column('Created At', 'date', CREATED_DOC);

/**
 * The `-o wide` columns of workloads: Containers, Images and, unless `withSelector` is false, Selector.
 *
 * @example
 * ```ts
 * const columns = [nameColumn, column('Ready'), ageColumn, ...templateColumns()];
 * ```
 */
export const templateColumns = (withSelector = true): ReadonlyArray<TableColumnDefinition> => [
  wide('Containers', 'string', 'Names of each container in the template.'),
  wide('Images', 'string', 'Images referenced by each container in the template.'),
  ...(withSelector ? [wide('Selector')] : []),
];

/** The description of the ObjectMeta name field (the Name column), for other modules' columns. */
export const nameDescription = NAME_DOC;

/** The description of the ObjectMeta creationTimestamp field (Age, Created At). */
export const createdDescription = CREATED_DOC;
