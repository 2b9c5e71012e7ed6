// Linter (npm run lint): typescript-eslint's recommended rules, the few exceptions below each with its reason.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import unicorn from 'eslint-plugin-unicorn';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '**/dist/', '.rts/', 'test/fixtures/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    plugins: { unicorn },
    rules: {
      // A function handed by reference to map/filter/forEach/... also receives the index and the array: a parameter
      // with a default (a depth, a radix, a limit) silently takes the index. Wrap it: `.map((x) => f(x))`.
      'unicorn/no-array-callback-reference': 'error',
      // A leading underscore marks a deliberate skip; `const { a, ...rest } = o` drops `a` on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read arbitrary JSON answers of the API and poke at internals on purpose.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Plain JavaScript entry points (bin/rts.js, the store child, the esbuild runner) are CommonJS by design.
    files: ['**/*.js', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
      },
    },
  },
);
