/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/sample-app'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
    // jose is ESM only; Node 20.19+ loads it with require(), jest's module system does not: it is transpiled for the tests.
    '/node_modules/(jose|@modelcontextprotocol/ext-tasks)/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true }, diagnostics: false }]
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/|@modelcontextprotocol/ext-tasks/)'],
  moduleNameMapper: {
    // ESM only, with "import"-only exports (the tasks extension's requester client, used by tests): mapped to its files.
    '^@modelcontextprotocol/ext-tasks/(.*)$': '<rootDir>/node_modules/@modelcontextprotocol/ext-tasks/dist/$1/index.js',
    '^@mcpfusion/core$': '<rootDir>/src/index.ts',
    '^@mcpfusion/core/testing$': '<rootDir>/src/testing/index.ts',
    '^@mcpfusion/core/redis$': '<rootDir>/src/redis/index.ts',
    '^@mcpfusion/core/advanced$': '<rootDir>/src/advanced.ts'
  },
  setupFiles: ['reflect-metadata', '<rootDir>/test/helpers/jest-env.ts'],
  testTimeout: 20000
};
