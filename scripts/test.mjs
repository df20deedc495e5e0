// npm test: unit and API tests (Vitest), then the end-to-end journeys (Playwright, real Chromium).
// On a machine without Chromium the end-to-end part is reported as not run; under CI it must run.
import './node-version.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildWebIfStale, root, run } from './lib.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-test-report-'));
const vitestReport = path.join(tmp, 'vitest.json');
const playwrightReport = path.join(tmp, 'playwright.json');
const totals = { passed: 0, failed: 0, skipped: 0 };

const vitestCode = await run(process.execPath, [
  path.join(root, 'node_modules/vitest/vitest.mjs'),
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
if (fs.existsSync(vitestReport)) {
  const r = JSON.parse(fs.readFileSync(vitestReport, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
}
// A failing run with no failed test (an unhandled error, a crashed worker) must not read as green.
if (vitestCode !== 0 && totals.failed === 0) {
  console.error('\nVitest failed outside the tests (see the errors above).');
  totals.failed += 1;
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  for (const c of candidates) if (c && fs.existsSync(c)) return c;
  const which = spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

let e2eCode = 0;
const chromium = findChromium();
if (!chromium) {
  if (process.env.CI === 'true') {
    console.error('\nNo Chromium found: the end-to-end tests must run under CI (set CHROMIUM_PATH).');
    e2eCode = 1;
    totals.failed += 1;
  } else {
    console.warn('\nEnd-to-end tests NOT run: no Chromium found. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.');
  }
} else {
  buildWebIfStale();
  e2eCode = await run(
    process.execPath,
    [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'web/playwright.config.ts', '--reporter=list,json'],
    {
      env: { ...process.env, CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
    },
  );
  if (fs.existsSync(playwrightReport)) {
    const s = JSON.parse(fs.readFileSync(playwrightReport, 'utf8')).stats;
    totals.passed += s.expected + (s.flaky ?? 0);
    totals.failed += s.unexpected;
    totals.skipped += s.skipped;
  }
  if (e2eCode !== 0 && totals.failed === 0) {
    console.error('\nPlaywright failed outside the tests (see the errors above).');
    totals.failed += 1;
  }
}

fs.rmSync(tmp, { recursive: true, force: true });
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(vitestCode || e2eCode ? 1 : 0);
