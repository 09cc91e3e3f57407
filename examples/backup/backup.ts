import { Type } from '@sinclair/typebox';
import { defineCustomResource, validations, type ObjectOf } from 'rxkube/crd';

/** The Backup resource, defined once: its type, its CRD and its checks all come from here. */
export const backups = defineCustomResource({
  group: 'example.com',
  kind: 'Backup',
  version: 'v1',
  description: 'A schedule of backups, for the namespace it belongs to.',
  spec: Type.Object(
    {
      schedule: Type.String({ description: 'A cron schedule, such as "0 3 * * *".', maxLength: 100 }),
    },
    { ...validations({ rule: "self.schedule.matches('^\\\\S+( \\\\S+){4}$')", message: 'schedule must be a cron schedule of five fields' }) },
  ),
  status: Type.Object({
    configMap: Type.Optional(Type.String({ description: 'The ConfigMap the controller made for this Backup.' })),
    observedGeneration: Type.Optional(Type.Integer({ format: 'int64', description: "The metadata.generation (the spec's version) the controller last acted on." })),
  }),
  shortNames: ['bk'],
  printerColumns: [
    { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' },
    { name: 'ConfigMap', type: 'string', jsonPath: '.status.configMap' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
});

/** A Backup as it arrives from the API server: spec and status typed, and the whole metadata. */
export type Backup = ObjectOf<typeof backups>;

export const { group: GROUP, version: VERSION, plural: PLURAL } = backups;
