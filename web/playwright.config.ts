import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// A fresh data directory for each run: the server puts its database and written e-mails there,
// and the specs read the e-mails from it (process.env.E2E_DATA_DIR, inherited by the workers).
// A directory made here is removed by the server script when it stops (about 40 MB a run).
const ownDataDir = !process.env.E2E_DATA_DIR;
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'mss-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;

const PORT = 3100;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  outputDir: path.join(repoRoot, 'test-results'),
  reporter: 'list',
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: 'chromium',
    headless: true,
    locale: 'en-US',
    // As a person who asks for less motion: dialogs are shown whole at once (theme.ts respectReducedMotion).
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
    },
  },
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    cwd: repoRoot,
    url: `http://localhost:${PORT}/api/v1/protocol/enums/en-US`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { DATA_DIR: dataDir, PORT: String(PORT), E2E_DATA_DIR: dataDir, ...(ownDataDir ? { E2E_REMOVE_DATA_DIR: '1' } : {}) },
    // SIGTERM, not SIGKILL: the server closes its database (and its socket directory) on the way out.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
  },
});
