import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          environment: 'node',
          // The translations, as the server has them (app.ts imports them), for tests of modules used without the app.
          setupFiles: ['server/test/setup.ts'],
          // Each file boots its own database; two cores, so keep files few at a time.
          maxWorkers: 2,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      './web/vitest.config.ts',
    ],
  },
});
