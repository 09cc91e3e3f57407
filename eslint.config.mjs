// ESLint flat config: typescript-eslint's recommended rules and eslint-plugin-rxjs-x's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import rxjsX from 'eslint-plugin-rxjs-x';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'docs/api/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['lib/**/*.ts', 'spec/**/*.ts'],
    languageOptions: { parserOptions: { project: ['./tsconfig.spec.json'], tsconfigRootDir: import.meta.dirname } },
    plugins: { 'rxjs-x': rxjsX },
    rules: {
      ...rxjsX.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['spec/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
