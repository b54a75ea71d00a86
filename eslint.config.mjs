// @ts-check
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  { ignores: ['build/', 'dist/', 'node_modules/', 'coverage/', '.conformance/', 'scratch/', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn'
    }
  },
  {
    // stdout is the stdio transport: the library never writes to it.
    files: ['src/**/*.ts', 'sample-app/**/*.ts'],
    rules: { 'no-console': 'error' }
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'sample-app/**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' }
  },
  {
    // Layers that cannot be crossed by accident: no import cycles in the library, type-only imports included.
    // (import-x skips type-only imports; test/unit/layers.test.ts checks the graph with them.)
    files: ['src/**/*.ts'],
    extends: [importX.flatConfigs.typescript],
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] }
  }
);
