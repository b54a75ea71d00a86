/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/sample-app'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }] },
  moduleNameMapper: {
    '^@mcpfusion/core$': '<rootDir>/src/index.ts',
    '^@mcpfusion/core/testing$': '<rootDir>/src/testing/index.ts'
  },
  setupFiles: ['reflect-metadata', '<rootDir>/test/helpers/jest-env.ts'],
  testTimeout: 20000
};
