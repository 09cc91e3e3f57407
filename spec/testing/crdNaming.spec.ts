// kube's naming controller as a pure decision: each name the CRD asks for is accepted when it is
// its own already or no other CRD of the group holds it; the reason is that of the last clash.
import { describe, expect, it } from '@jest/globals';
import { crdNaming, establishedAfter } from '../../lib/testing/fakeApiServer/controllers/crdNames.js';
import type { JsonObject } from '../../lib/testing/fakeApiServer/resources.js';

const holder = (names: JsonObject): JsonObject => ({ spec: { group: 'example.com', names }, status: { acceptedNames: names } });
const widgets = holder({ plural: 'widgets', singular: 'widget', shortNames: ['wd', 'w'], kind: 'Widget', listKind: 'WidgetList' });
const asking = (names: JsonObject, accepted?: JsonObject): JsonObject => ({ spec: { group: 'example.com', names }, ...(accepted ? { status: { acceptedNames: accepted } } : {}) });

describe('crdNaming', () => {
  it.each<[string, JsonObject, string, string]>([
    ['a plural held by another', { plural: 'widget', singular: 'gadget', kind: 'Gadget' }, 'PluralConflict', '"widget" is already in use'],
    ['a singular held as a plural', { plural: 'gadgets', singular: 'widgets', kind: 'Gadget' }, 'SingularConflict', '"widgets" is already in use'],
    ['one short name held', { plural: 'gadgets', kind: 'Gadget', shortNames: ['gd', 'wd'] }, 'ShortNamesConflict', '"wd" is already in use'],
    ['two short names held', { plural: 'gadgets', kind: 'Gadget', shortNames: ['w', 'wd'] }, 'ShortNamesConflict', '["w" is already in use, "wd" is already in use]'],
    ['a kind held', { plural: 'gadgets', kind: 'Widget', listKind: 'GadgetList' }, 'KindConflict', '"Widget" is already in use'],
    ['a kind held, the defaulted list kind too: the last clash wins', { plural: 'gadgets', kind: 'Widget' }, 'ListKindConflict', '"WidgetList" is already in use'],
    ['a list kind held as a kind', { plural: 'gadgets', kind: 'Gadget', listKind: 'Widget' }, 'ListKindConflict', '"Widget" is already in use'],
  ])('%s: NamesAccepted False', (_what, names, reason, message) => {
    expect(crdNaming(asking(names), [widgets]).namesAccepted).toEqual({ type: 'NamesAccepted', status: 'False', reason, message });
  });

  it('accepts what no one holds, with the defaulted singular and list kind, and keeps the categories asked', () => {
    const d = crdNaming(asking({ plural: 'gadgets', kind: 'Gadget', shortNames: ['gd'], categories: ['all'] }), [widgets]);
    expect(d.namesAccepted).toEqual({ type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    expect(d.acceptedNames).toEqual({ plural: 'gadgets', singular: 'gadget', shortNames: ['gd'], kind: 'Gadget', listKind: 'GadgetList', categories: ['all'] });
  });

  it('accepts only the names that do not clash (kube’s best match)', () => {
    // The defaulted singular `widget` and the kind are held: neither is accepted (kind stays "", as Go's zero value).
    expect(crdNaming(asking({ plural: 'gadgets', kind: 'Widget', listKind: 'GadgetList' }), [widgets]).acceptedNames).toStrictEqual({
      plural: 'gadgets',
      kind: '',
      listKind: 'GadgetList',
    });
  });

  it('a CRD’s own accepted names never clash with themselves', () => {
    expect(crdNaming(widgets, [widgets]).namesAccepted.status).toBe('True');
  });
});

describe('establishedAfter', () => {
  const accepted = { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' } as const;
  const refused = { type: 'NamesAccepted', status: 'False', reason: 'KindConflict', message: '"Widget" is already in use' } as const;
  it('is True once the names are accepted, False NotAccepted otherwise, and stays True once True', () => {
    expect(establishedAfter(undefined, accepted)).toEqual({ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
    expect(establishedAfter(undefined, refused)).toEqual({ type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    const was = establishedAfter(undefined, accepted);
    expect(establishedAfter(was, refused)).toBe(was);
  });
});
