import { defineConfig } from 'vitest/config';

// The hall's fault suite (`npm run test:faults`): minutes of real PostgreSQL and Redis restarts, run apart from
// `npm test` so that it runs with nothing else heavy beside it.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.faults.ts'],
    testTimeout: 400_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    globalSetup: ['test/tmpdir.ts'],
  },
});
