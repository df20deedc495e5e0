import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { CLIENT_DIR, generatedTypes, servedDocument } from './api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the TypeScript client in clients/typescript', () => {
  it('when the API changes, then the committed OpenAPI document and generated types change with it (npm run api-client)', async () => {
    const document = await servedDocument(t);
    expect(fs.readFileSync(new URL('openapi.json', CLIENT_DIR), 'utf8'), 'clients/typescript/openapi.json: run npm run api-client').toBe(document);
    expect(fs.readFileSync(new URL('schema.d.ts', CLIENT_DIR), 'utf8'), 'clients/typescript/schema.d.ts: run npm run api-client').toBe(
      await generatedTypes(document),
    );
  });
});
