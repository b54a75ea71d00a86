/**
 * Tests are compiled by swc (@swc/jest): it strips the types without the TypeScript compiler, so
 * the tests run on TypeScript 6 and 7 alike, and `npm test` type-checks once with tsc before jest.
 * The framework reads the decorators' type metadata: legacy decorators and decoratorMetadata on.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
          target: 'es2022'
        },
        module: { type: 'commonjs' }
      }
    ]
  },
  setupFiles: ['reflect-metadata'],
  testTimeout: 20000
};
