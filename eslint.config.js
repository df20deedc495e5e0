import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';
import path from 'node:path';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/*
 * Import zones, by path (docs/architecture.md §9 "Dependencies point one way"). A zone says which
 * files may not import from which folder; `except` names what they may import there after all.
 *
 * Web: app/ composes features; a feature imports another feature only through that feature's
 * index.ts (what it offers the others: no screens, which app/ imports by their own paths, and
 * nothing that would close a cycle), and not app/ (its tests may import app/: they render the
 * app's providers); components/, lib/ and api/ import no feature and not app/. Server: a module
 * imports another only where MODULE_IMPORTS allows it (so there is no cycle between modules);
 * lib/, db/, auth/, mail/ and jobs/ import no module. The contracts import neither the server nor
 * the web, and neither of those imports the other. And no import cycles.
 */
const root = import.meta.dirname;
const folders = (dir) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

const WEB = 'web/src';
const features = folders(`${WEB}/features`);
const webZones = (withApp) => [
  ...features.map((feature) => ({
    target: `${WEB}/features/${feature}`,
    from: `${WEB}/features`,
    except: [`./${feature}`, ...features.filter((f) => f !== feature).map((f) => `./${f}/index.ts`)],
    message:
      'A feature imports another feature only through its index.ts (../<feature>/index.ts): export the piece there, or move what several features share to components/, lib/ or api/.',
  })),
  ...(withApp
    ? [{ target: `${WEB}/features`, from: `${WEB}/app`, message: 'Only app/ imports app/: move the shared piece down to components/ or lib/.' }]
    : []),
  ...['components', 'lib', 'api'].flatMap((layer) => [
    { target: `${WEB}/${layer}`, from: `${WEB}/features`, message: `${layer}/ imports no feature: the feature imports it.` },
    ...(withApp ? [{ target: `${WEB}/${layer}`, from: `${WEB}/app`, message: `${layer}/ does not import app/: app/ imports it.` }] : []),
  ]),
];

const SERVER = 'server/src';
/** What a server module may import of other modules (its own folder always). Every other pair is refused. */
const MODULE_IMPORTS = {
  'admin-users': ['auth'],
  users: ['auth'],
  approvals: ['periods/periods.queries.ts', 'reports'],
  imports: ['preflight', 'reports'],
  // A history import reads files as imports do, writes reports through their workflow and publishes.
  history: ['imports/imports.validator.ts', 'imports/imports.sheets.ts', 'imports/imports.service.ts', 'reports/reports.workflow.ts', 'statistics'],
  // The period workflow moves reports and publishes statistics; nothing below imports it.
  periods: ['reports/reports.workflow.ts', 'statistics'],
  preflight: ['periods/periods.queries.ts'],
  reports: ['periods/periods.queries.ts', 'preflight', 'statistics', 'communications/notifications.ts'],
};
const serverZones = [
  ...folders(`${SERVER}/modules`).map((module) => ({
    target: `${SERVER}/modules/${module}`,
    from: `${SERVER}/modules`,
    except: [module, ...(MODULE_IMPORTS[module] ?? [])].map((p) => `./${p}`),
    message: `${module} may import only ${['its own folder', ...(MODULE_IMPORTS[module] ?? [])].join(', ')} of the modules (MODULE_IMPORTS in eslint.config.js).`,
  })),
  ...['lib', 'db', 'auth', 'mail', 'jobs'].map((layer) => ({
    target: `${SERVER}/${layer}`,
    from: `${SERVER}/modules`,
    message: `${layer}/ imports no module: the module imports it (or app.ts wires them).`,
  })),
];
const packageZones = [
  { target: 'packages/contracts', from: 'server', message: 'The contracts describe the wire: they import no server code.' },
  { target: 'packages/contracts', from: 'web', message: 'The contracts describe the wire: they import no web code.' },
  { target: 'web', from: 'server', message: 'The web never imports server code or the database schema: share it through packages/contracts.' },
  { target: 'server', from: 'web', message: 'The server imports no web code.' },
];
const tests = ['**/*.test.{ts,tsx}'];
const zones = (list) => ({ 'import-x/no-restricted-paths': ['error', { basePath: root, zones: list }] });
const importZones = [
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      // Without it import-x parses only .js files for their imports, and no-cycle sees no cycle in TypeScript.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: zones([...packageZones, ...webZones(true), ...serverZones]),
  },
  // Tests render the app's providers and build their data through any module.
  { files: tests, rules: zones([...packageZones, ...webZones(false)]) },
  // No file reaches itself through its imports (a cycle the zones would let through inside a folder).
  {
    files: ['server/src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'packages/contracts/src/**/*.ts'],
    ignores: tests,
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // One access policy (server/src/auth/policy.ts): only it reads a principal's abilities.
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/auth/policy.ts', ...tests],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@mss/contracts/abilities',
              importNames: ['can', 'canAny', 'canAll', 'canInMarket', 'canSomewhere'],
              message: 'Ask the access policy (server/src/auth/policy.ts: mayIn, mayForCompany, maySomewhere, …), the one place that reads abilities.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='subject'][object.name='principal']",
          message: "A principal's abilities are read by the access policy only (server/src/auth/policy.ts).",
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'server/src/db/migrations/**',
      'clients/typescript/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...importZones,
);
