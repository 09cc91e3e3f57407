/** Jest 30 in ESM mode: @kubernetes/client-node is ESM-only. Run through `npm test`. */
// Specs inject errors on purpose: informers' default logger stays quiet (a spec that tests logging
// passes its own logger). The workers inherit this environment.
process.env.RXKUBE_LOG ??= 'off';
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/spec', '<rootDir>/examples'],
  testMatch: ['**/*.spec.ts'],
  // examples/angular is an Angular CLI app with its own node_modules and its own browser test (npm run e2e there).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/examples/angular/'],
  modulePathIgnorePatterns: ['<rootDir>/examples/angular/'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // The examples import the package by name, as a user's code does; here that is the sources.
    '^rxkube$': '<rootDir>/lib/node.ts',
    '^rxkube/testing$': '<rootDir>/lib/testing/index.ts',
    '^rxkube/prometheus$': '<rootDir>/lib/prometheus/index.ts',
    '^rxkube/webhooks$': '<rootDir>/lib/webhooks/index.ts',
    '^rxkube/crd$': '<rootDir>/lib/crd/definition/index.ts',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.spec.json', diagnostics: { ignoreCodes: ['TS151001'] } }],
  },
  testTimeout: 30000,
  maxWorkers: 2,
  // `npm test` (scripts/test.mjs) runs in-band shards side by side; this balances them by duration.
  testSequencer: '<rootDir>/spec/support/shardSequencer.mjs',
};
