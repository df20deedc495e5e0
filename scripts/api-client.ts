// Writes the TypeScript client's OpenAPI document and types (clients/typescript/openapi.json,
// schema.d.ts) from the API as the server serves it. Run it after changing a route; the test run
// fails while they differ (server/test/api-client.test.ts).
//
//   npm run api-client
import fs from 'node:fs';
import { createTestApp } from '../server/test/helpers.ts';
import { CLIENT_DIR, generatedTypes, servedDocument } from '../server/test/api-client.ts';

const t = await createTestApp();
try {
  const document = await servedDocument(t);
  fs.writeFileSync(new URL('openapi.json', CLIENT_DIR), document);
  fs.writeFileSync(new URL('schema.d.ts', CLIENT_DIR), await generatedTypes(document));
  console.log(`written: ${new URL('openapi.json', CLIENT_DIR).pathname}, schema.d.ts`);
} finally {
  await t.close();
}
