import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jest from 'eslint-plugin-jest';
import playwright from 'eslint-plugin-playwright';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tools/**',
      '.cache/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Only the host renders notices: remotes and shared UI use notify() from @qc/ui-state (DESIGN §3).
    files: ['remote-*/**/*.{ts,tsx}', 'shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'antd',
              importNames: ['notification', 'message', 'App'],
              message: 'Use notify() from @qc/ui-state.',
            },
          ],
          patterns: [
            {
              group: ['antd/es/notification*', 'antd/es/message*', 'antd/es/app*', 'antd/lib/*'],
              message: 'Use notify() from @qc/ui-state; import antd from antd/es/*.',
            },
          ],
        },
      ],
    },
  },
  {
    // A focused test silently drops the others; an expect that a branch may skip asserts nothing.
    files: ['**/*.test.{ts,tsx,js}', 'test/**/*.{ts,tsx}', 'api/src/test/**/*.ts'],
    plugins: { jest },
    settings: { jest: { version: 30 } },
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-conditional-expect': 'error',
      'jest/valid-expect': 'error',
    },
  },
  {
    files: ['e2e/**/*.ts'],
    plugins: { playwright },
    rules: {
      'playwright/missing-playwright-await': 'error',
      'playwright/no-focused-test': 'error',
    },
  },
  {
    files: ['**/*.{js,cjs,mjs}'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
