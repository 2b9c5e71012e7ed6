/** Jest: ts-jest in transpile-only mode (npm test runs tsc first); middy is ESM-only, so it is transformed too. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.[tj]s$': ['ts-jest', { isolatedModules: true, tsconfig: { allowJs: true, esModuleInterop: true, module: 'commonjs', target: 'ES2022' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@middy)/)'],
  setupFiles: ['<rootDir>/test/helpers/jest-setup.ts'],
  testTimeout: 30000,
  maxWorkers: 2,
};
