// Lint for the whole workspace. The module-boundaries rule encodes the architecture:
// apps wire libs; libs never import apps; contracts import nothing of ours; a service's
// libs (scope:api, scope:transcoder, …) never import another service's libs.
import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/coverage', 'tmp', '.nx', '**/*.js', '**/*.mjs', '**/*.mts'] },
  {
    files: ['**/*.ts'],
    rules: {
      // `!` marks an invariant the code has just checked (a row RETURNING one row, a regex group).
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:testing', 'type:data-access', 'type:util', 'type:contracts'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:data-access', 'type:util', 'type:contracts'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contracts'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util', 'type:contracts', 'type:data-access'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            // A browser app (the dashboard) runs none of the libs' code: it may import contracts'
            // types only (the rule below keeps those imports type-only).
            { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:api', 'scope:shared'] },
            { sourceTag: 'scope:transcoder', onlyDependOnLibsWithTags: ['scope:transcoder', 'scope:shared'] },
            { sourceTag: 'scope:thumbnailer', onlyDependOnLibsWithTags: ['scope:thumbnailer', 'scope:shared'] },
            { sourceTag: 'scope:notifier', onlyDependOnLibsWithTags: ['scope:notifier', 'scope:shared'] },
            { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:shared', 'scope:testing'] },
          ],
        },
      ],
    },
  },
  {
    // The dashboard's modules are loaded by a browser as they are compiled: only its own modules
    // exist there, named by their compiled file. Anything else (contracts, the DOM's types) only
    // with `import type`, which compiles to nothing. tools/build checks the compiled output too.
    files: ['apps/dashboard/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\.{1,2}/).*|^\\.{1,2}/.*(?<!\\.js)$',
              allowTypeImports: true,
              message: "The browser loads only the dashboard's own modules, as './<name>.js'; import anything else with `import type`.",
            },
          ],
        },
      ],
    },
  },
];
