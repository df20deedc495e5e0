import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/*
 * Import direction in the web app (CONVENTIONS "Dependencies point one way"): app/ composes
 * features; a feature imports neither another feature nor app/; components/, lib/ and api/
 * import no feature and not app/. Imports are relative, so the patterns depend on how deep a
 * file sits: from web/src/features/<f>/<d directories>/file, "../" taken d+1 times leaves the
 * feature (into a sibling feature) and d+2 times reaches web/src. Tests may import app/ (they
 * render the app's providers), never another feature.
 */
const FEATURE_DEPTHS = [0, 1, 2, 3];
const up = (n) => `(\\.\\./){${n}}`;
const leaveFeature = (d) => ({
  regex: `^${up(d + 1)}(?!\\.\\./)|(^|/)features/`,
  message: 'A feature imports no other feature: move the shared piece to components/, lib/ or api/, or combine the features in app/.',
});
const intoApp = (n) => ({ regex: `^${up(n)}app/`, message: 'Only app/ imports app/: move the shared piece down to components/ or lib/.' });
const featureGlob = (d) => `web/src/features/*/${'*/'.repeat(d)}*.{ts,tsx}`;
const tests = ['**/*.test.{ts,tsx}'];
const importDirection = [
  ...FEATURE_DEPTHS.flatMap((d) => [
    { files: [featureGlob(d)], ignores: tests, rules: { 'no-restricted-imports': ['error', { patterns: [leaveFeature(d), intoApp(d + 2)] }] } },
    {
      files: [featureGlob(d)].map((g) => g.replace('*.{ts,tsx}', '*.test.{ts,tsx}')),
      rules: { 'no-restricted-imports': ['error', { patterns: [leaveFeature(d)] }] },
    },
  ]),
  ...['components', 'lib', 'api'].flatMap((layer) => {
    const noFeature = { regex: '(^|/)features/', message: `${layer}/ imports no feature: the feature imports it.` };
    const noApp = { regex: '^(\\.\\./)+app/', message: `${layer}/ does not import app/: app/ imports it.` };
    return [
      { files: [`web/src/${layer}/**/*.{ts,tsx}`], ignores: tests, rules: { 'no-restricted-imports': ['error', { patterns: [noFeature, noApp] }] } },
      { files: [`web/src/${layer}/**/*.test.{ts,tsx}`], rules: { 'no-restricted-imports': ['error', { patterns: [noFeature] }] } },
    ];
  }),
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'server/src/db/migrations/**'] },
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
  ...importDirection,
);
