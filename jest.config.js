/**
 * Tests are compiled by swc (`@swc/jest`), which needs no TypeScript compiler API: the same tests
 * run whichever TypeScript the project has (6 or 7). swc only strips types; the type check is
 * `tsc`, once per run, in `npm test`'s compile step. Legacy decorators and their `design:*`
 * metadata are on, as tsconfig.json's `experimentalDecorators` and `emitDecoratorMetadata` are:
 * tsyringe and `@Input()` read that metadata.
 */
const swcFor = (syntax) => [
  '@swc/jest',
  {
    jsc: {
      parser: syntax === 'typescript' ? { syntax, decorators: true } : { syntax },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
      target: 'es2022',
      keepClassNames: true
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline'
  }
];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/sample-app'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': swcFor('typescript'),
    // jose is ESM only; Node 20.19+ loads it with require(), jest's module system does not: it is transpiled for the tests.
    '/node_modules/(jose|@modelcontextprotocol/ext-tasks)/.+\\.js$': swcFor('ecmascript')
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/|@modelcontextprotocol/ext-tasks/)'],
  moduleNameMapper: {
    // ESM only, with "import"-only exports (the tasks extension's requester client, used by tests): mapped to its files.
    '^@modelcontextprotocol/ext-tasks/(.*)$': '<rootDir>/node_modules/@modelcontextprotocol/ext-tasks/dist/$1/index.js',
    '^@mcpfusion/core$': '<rootDir>/src/index.ts',
    '^@mcpfusion/core/testing$': '<rootDir>/src/testing/index.ts',
    '^@mcpfusion/core/redis$': '<rootDir>/src/redis/index.ts',
    '^@mcpfusion/core/advanced$': '<rootDir>/src/advanced.ts',
    '^@mcpfusion/core/input-rounds$': '<rootDir>/src/wire/input-rounds.ts',
    '^@mcpfusion/core/raw-exchange$': '<rootDir>/src/wire/raw-exchange.ts',
    '^@mcpfusion/core/cloudflare$': '<rootDir>/src/cloudflare/index.ts',
    '^@mcpfusion/core/early-listen$': '<rootDir>/src/early-listen.ts'
  },
  setupFiles: ['reflect-metadata', '<rootDir>/test/helpers/jest-env.ts'],
  testTimeout: 20000
};
