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
];
