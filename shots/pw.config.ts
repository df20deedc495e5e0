import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.',
  timeout: 120_000,
  workers: 1,
  use: { baseURL: 'http://localhost:3230', launchOptions: { executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'] } },
});
