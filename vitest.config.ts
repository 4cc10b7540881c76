import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'vision/**/*.test.ts', 'web/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    globalSetup: ['test/tmpdir.ts'],
  },
});
