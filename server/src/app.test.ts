import zlib from 'node:zlib';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the API as a whole', () => {
  it('when any answer is sent, then it carries the security headers', async () => {
    for (const url of ['/api/v1/protocol/enums/en-US', '/api/v1/users/me', '/api/v1/nothing-here']) {
      const res = await t.app.inject({ url });
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('when a path is unknown, then 404 with the catalogue message', async () => {
    const res = await t.app.inject({ url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Could not find what you were looking for.' });
  });

  it('when Accept-Language asks for one of the five languages, then the message is in it; any other gets en-US', async () => {
    for (const [language, message] of [
      ['sv-SE', 'Du är inte inloggad.'],
      ['fi-FI,fi;q=0.9', 'Et ole kirjautunut sisään.'],
      ['de-DE', 'You are not signed in.'],
      ['', 'You are not signed in.'],
    ]) {
      const res = await t.app.inject({ url: '/api/v1/users/me', headers: { 'accept-language': language! } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message });
    }
  });

  it('when a body is too large, then 413 before it is read', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'The request is too large.' });
  });

  it('when the body is not JSON, then 422', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(res.statusCode).toBe(422);
  });

  it('when /api/docs is opened, then the OpenAPI document lists every route (relative to the /api/v1 server)', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/auth/login',
      '/auth/refresh',
      '/auth/logout',
      '/auth/token',
      '/auth/forgot-password',
      '/auth/reset-password',
      '/users/me',
      '/users/me/abilities',
      '/protocol/enums/{locale}',
    ]) {
      expect(paths).toContain(p);
    }
    const ui = await t.app.inject({ url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('when the OpenAPI document is read, then every operation lists the error answers 401, 403, 404, 409 and 422, each a reference to the one Error schema', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['message'] });
    const missing: string[] = [];
    let operations = 0;
    for (const [url, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        operations++;
        for (const status of ['401', '403', '404', '409', '422']) {
          const schema = JSON.stringify(operation.responses[status] ?? null);
          if (!schema.includes('#/components/schemas/Error')) missing.push(`${method} ${url} ${status}`);
        }
      }
    }
    expect(operations).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});

describe('serving the web app', () => {
  let web: TestApp;
  beforeAll(async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-web-'));
    fs.writeFileSync(`${dist}/index.html`, '<!doctype html><title>app</title>');
    fs.mkdirSync(`${dist}/assets`);
    fs.writeFileSync(`${dist}/assets/app.js`, 'console.log(1)');
    // As scripts/compress-assets.mjs leaves a build: compressed copies beside the file.
    const big = `console.log(${JSON.stringify('x'.repeat(5000))});`;
    fs.writeFileSync(`${dist}/assets/big-0a1b2c3d.js`, big);
    fs.writeFileSync(`${dist}/assets/big-0a1b2c3d.js.br`, zlib.brotliCompressSync(big));
    fs.writeFileSync(`${dist}/assets/big-0a1b2c3d.js.gz`, zlib.gzipSync(big));
    web = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await web?.close();
  });

  it('when / or any client route is opened, then index.html', async () => {
    for (const url of ['/', '/login', '/users/12', '/reset-password/abc?email=a%40b.test']) {
      const res = await web.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<title>app</title>');
    }
  });

  it('when a build asset exists, then it is served; when it is missing, then 404, not HTML', async () => {
    const asset = await web.app.inject({ url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    const missing = await web.app.inject({ url: '/assets/gone.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/json');
  });

  it('when a built asset is asked for, then the compressed copy the browser accepts, cached as immutable; index.html is revalidated', async () => {
    const big = `console.log(${JSON.stringify('x'.repeat(5000))});`;
    const br = await web.app.inject({ url: '/assets/big-0a1b2c3d.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(big);
    const gz = await web.app.inject({ url: '/assets/big-0a1b2c3d.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(big);
    const plain = await web.app.inject({ url: '/assets/big-0a1b2c3d.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(big);
    for (const url of ['/', '/login']) expect((await web.app.inject({ url })).headers['cache-control']).toBe('no-cache');
  });

  it('when an unknown API path is asked for, then the JSON 404, not the app', async () => {
    const res = await web.app.inject({ url: '/api/v1/unknown' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Could not find what you were looking for.' });
  });
});
