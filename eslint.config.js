import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The source trees held to at most {@link MAX_LINES} lines a file. */
const SOURCE = ['server/src', 'shared-contracts/src', 'host-pages/src', 'widgets/*/src', 'bench/src'].map((dir) => `${dir}/**/*.{ts,tsx,js,mjs}`);
const MAX_LINES = 400;
/** Files over the limit while they are split (each leaves this list as it is). */
const LONGER_FOR_NOW = [
];

/**
 * A feature's SQL lives in its `.queries.ts` (plain functions taking `db` or a `Tx` first) and
 * its tables' types in `.table.ts`; services, routes and jobs call those functions.
 */
const SQL_STATEMENTS = [
  'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|executeQuery|forUpdate|forNoKeyUpdate|forShare|forKeyShare)$/]',
  "TaggedTemplateExpression[tag.name='sql']",
  "MemberExpression[object.name='sql']",
].map((selector) => ({ selector, message: 'SQL belongs in the feature’s .queries.ts: call a function from there.' }));
/** Files that still run SQL of their own while it moves into their feature's queries. */
const SQL_OUTSIDE_QUERIES_FOR_NOW = [];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'storybook/dist/**', '.data/**', 'coverage/**', 'storybook-static/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: true }],
    },
  },
  {
    files: ['widgets/**/*.tsx', 'widgets/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: SOURCE,
    ignores: LONGER_FOR_NOW,
    rules: { 'max-lines': ['error', { max: MAX_LINES }] },
  },
  {
    files: ['server/src/features/**/*.ts'],
    ignores: ['**/*.queries.ts', '**/*.table.ts', ...SQL_OUTSIDE_QUERIES_FOR_NOW],
    rules: { 'no-restricted-syntax': ['error', ...SQL_STATEMENTS] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
