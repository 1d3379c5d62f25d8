import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Exceptions of a glob zone are matched against absolute paths.
const root = fileURLToPath(new URL('.', import.meta.url));

const foldersIn = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * The architecture's import boundaries (docs/decisions/019-import-boundaries-and-dead-code.md): web features never
 * import each other; the web kit (components, lib, config) never imports a feature or the app shell;
 * server plugins, lib and db never import a module; a module reaches another only through its service.
 */
const boundaryZones = [
  ...foldersIn('./apps/web/src/features').map((feature) => ({
    target: `apps/web/src/features/${feature}/**`,
    from: ['apps/web/src/features/*/**'],
    except: [`${root}apps/web/src/features/${feature}/**`],
    message: 'A web feature never imports another feature: move what both need to components/ or lib/.',
  })),
  {
    target: ['apps/web/src/components/**', 'apps/web/src/lib/**', 'apps/web/src/config/**'],
    from: ['apps/web/src/features/**', 'apps/web/src/app/**'],
    message: 'The shared kit never imports a feature or the app shell.',
  },
  {
    target: ['apps/server/src/plugins/**', 'apps/server/src/lib/**', 'apps/server/src/db/**'],
    from: ['apps/server/src/modules/**'],
    message: 'Plugins, lib and db never import a module: what both need belongs in lib/.',
  },
  {
    target: ['apps/server/src/lib/**'],
    from: ['apps/server/src/plugins/**'],
    message: 'lib never imports a plugin.',
  },
  ...foldersIn('./apps/server/src/modules').map((module) => ({
    target: `apps/server/src/modules/${module}/**`,
    from: ['apps/server/src/modules/*/**'],
    except: [`${root}apps/server/src/modules/${module}/**`, `${root}apps/server/src/modules/*/*.service.ts`],
    message: 'A module reaches another module only through its service.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/.dist-*/**',
      '**/node_modules/**',
      'data/**',
      '**/migrations/**',
      'apps/e2e/test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Type-aware rules: each file is checked with the types of the workspace it belongs to.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'error',
      // Fastify plugins and route handlers are async by contract, awaiting or not.
      '@typescript-eslint/require-await': 'off',
      // Services are closures, never classes: there is no `this` a detached method could lose.
      '@typescript-eslint/unbound-method': 'off',
      // An event handler may start async work (react-hook-form's handleSubmit does); a promise passed
      // where a value is expected is still an error.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // Plain JavaScript (build scripts) and tool configs are outside the typed projects.
    files: ['**/*.{js,mjs,cjs}', '**/*.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
  // Each side sees only its own runtime's globals: `window` in the server, or `process` in the
  // browser bundle, is an error at lint time rather than at run time.
  { files: ['apps/web/src/**', 'apps/web/public/**'], languageOptions: { globals: globals.browser } },
  {
    files: [
      'apps/server/**',
      'packages/**',
      'bench/**',
      'apps/web/scripts/**',
      'scripts/**',
      '*.{js,mjs,ts}',
      '**/*.config.{js,ts}',
    ],
    languageOptions: { globals: globals.node },
  },
  // End-to-end specs run in Node and hand functions to the page.
  { files: ['apps/e2e/**'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  {
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/server/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['apps/*/tsconfig.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }] },
  },
  {
    // The rules of hooks, and the React Compiler's checks of purity and state updates.
    files: ['apps/web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    // The app is not built with the React Compiler, so a library it cannot memoise (react-hook-form's
    // watch) costs nothing here.
    rules: { 'react-hooks/incompatible-library': 'off' },
  },
  {
    // One way per thing (issue 30): where the app keeps a component of its own, the library's twin
    // is banned. The table pager stays ours (decisions 036 and 053): DataTable's pager.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@mui/material/TablePagination',
              message: "Use DataTable's pagination (components/data-table.tsx, decision 036).",
            },
            {
              name: '@mui/material',
              importNames: ['TablePagination'],
              message: "Use DataTable's pagination (components/data-table.tsx, decision 036).",
            },
            {
              name: '@mui/material/Menu',
              message:
                'Use PopupMenu (components/popup-menu.tsx): a popover menu that works before React runs (decision 053).',
            },
            {
              name: '@mui/material',
              importNames: ['Menu'],
              message:
                'Use PopupMenu (components/popup-menu.tsx): a popover menu that works before React runs (decision 053).',
            },
          ],
        },
      ],
    },
  },
);
