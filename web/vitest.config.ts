import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineProject({
  plugins: [react()],
  // The include below is written from the repository root, whichever directory vitest starts in.
  root: repoRoot,
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['web/src/**/*.test.{ts,tsx}'],
    setupFiles: ['web/src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
