// @ts-check
import tseslint from 'typescript-eslint';

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
  }
);
