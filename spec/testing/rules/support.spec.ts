// The string, quantity, image and cron helpers the rules share, against the cases of the
// libraries kube uses (apimachinery's validation and resource.Quantity, robfig/cron).
import { describe, expect, it } from '@jest/globals';
import { isConfigMapKey, isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isEnvVarName, isLabelValue, isQualifiedName, isValidPortName } from '../../../lib/testing/fakeApiServer/registry/rules/support/names.js';
import { formatQuantity, parseQuantity, roundUpQuantity } from '../../../lib/testing/fakeApiServer/registry/rules/support/quantities.js';
import { imageTag } from '../../../lib/testing/fakeApiServer/registry/rules/support/imageReference.js';
import { cronScheduleError } from '../../../lib/testing/fakeApiServer/registry/rules/batch/cronSchedule.js';
import { canonicalQuantity, QuantityFormatError } from '../../../lib/testing/fakeApiServer/registry/rules/support/resourceLists.js';

describe('name and key checks say what kube says', () => {
  it.each([
    ['web', []],
    ['a.b', ['must not contain dots']],
    ['Web', ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
  ])('IsDNS1123Label(%j) (Go\'s RegexError puts two spaces before "or")', (value, expected) => {
    expect(isDNS1123Label(value)).toEqual(expected);
  });

  it('IsDNS1123Subdomain and IsDNS1035Label quote their regexes and examples', () => {
    expect(isDNS1123Subdomain('example.com')).toEqual([]);
    expect(isDNS1123Subdomain('-x')).toEqual([
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    expect(isDNS1035Label('1web')).toEqual([
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it('label keys and values follow IsQualifiedName / IsValidLabelValue', () => {
    expect(isQualifiedName('app.kubernetes.io/name')).toEqual([]);
    expect(isQualifiedName('/a')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a valid label key must consist of alphanumeric characters/);
    expect(isQualifiedName('x'.repeat(64))).toEqual(['name part must be no more than 63 bytes']);
    expect(isLabelValue('')).toEqual([]);
    expect(isLabelValue('-a')[0]).toMatch(/^a valid label must be an empty string or consist of alphanumeric characters/);
  });

  it('port names, env var names and config keys', () => {
    expect(isValidPortName('http')).toEqual([]);
    expect(isValidPortName('HTTP-')).toEqual([
      'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'must contain at least one letter (a-z)',
      'must not begin or end with a hyphen',
    ]);
    expect(isEnvVarName('MY VAR.1')).toEqual([]);
    expect(isEnvVarName('A=B')).toEqual(["a valid environment variable name must consist only of printable ASCII characters other than '='"]);
    expect(isConfigMapKey('..x')).toEqual(["must not start with '..'"]);
  });
});

describe('quantities are stored in canonical form, as resource.Quantity prints them', () => {
  // Pairs from apimachinery's quantity_test.go (TestQuantityParse, TestQuantityString).
  it.each([
    ['0', '0'],
    ['0.5', '500m'],
    ['500m', '500m'],
    ['1000m', '1'],
    ['1000', '1k'],
    ['1500', '1500'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['1.5Gi', '1536Mi'],
    ['2Gi', '2Gi'],
    ['1.1Ki', '1126400m'],
    ['100u', '100u'],
    ['1e3', '1e3'],
    ['129e6', '129e6'],
    ['128974848', '128974848'],
    ['0.1', '100m'],
  ])('%j is stored as %j', (input, expected) => {
    const q = parseQuantity(input);
    expect(q && formatQuantity(q)).toBe(expected);
  });

  it('a resource list rounds up to milli (SetDefaults_ResourceList)', () => {
    expect(canonicalQuantity('100u', 3)).toBe('1m');
    expect(canonicalQuantity(0.25, 3)).toBe('250m');
    expect(formatQuantity(roundUpQuantity(parseQuantity('1.0001')!, 3))).toBe('1001m');
  });

  it.each(['abc', '1.5.5', '', '1Qi', '5-3'])('%j does not decode', (input) => {
    expect(() => canonicalQuantity(input)).toThrow(QuantityFormatError);
  });
});

describe('image tags decide the default pull policy', () => {
  it.each([
    ['nginx', 'latest'],
    ['nginx:latest', 'latest'],
    ['nginx:1.27', '1.27'],
    ['registry:5000/team/app', 'latest'],
    ['app@sha256:' + 'a'.repeat(64), ''],
    ['app:v2@sha256:' + 'a'.repeat(64), 'v2'],
    ['MyImage', ''],
  ])('%j has tag %j', (image, tag) => {
    expect(imageTag(image)).toBe(tag);
  });
});

describe('CronJob schedules parse as robfig/cron ParseStandard does', () => {
  it.each([
    ['*/5 * * * *', undefined],
    ['0 0 * * MON-FRI', undefined],
    ['@hourly', undefined],
    ['@every 1h30m', undefined],
    ['every minute', 'expected exactly 5 fields, found 2: [every minute]'],
    ['61 * * * *', 'end of range (61) above maximum (59): 61'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['@weird', 'unrecognized descriptor: @weird'],
  ])('%j', (schedule, error) => {
    expect(cronScheduleError(schedule)).toBe(error);
  });
});
