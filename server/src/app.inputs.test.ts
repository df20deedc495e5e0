import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldLabel } from '@mss/contracts/messages';
import { files, historyImports, imports, reports } from './db/schema.ts';
import { createCompany, createMarket, createOrganization, createTestApp, createUser, signIn, signInAs, type TestApp, XHR } from '../test/helpers.ts';

/*
 * The security probe found that a NUL byte (or another control character, or half of a UTF-16 surrogate
 * pair) in any text input reached PostgreSQL, which refuses it: 500. A very long string did the
 * same wherever a schema had no maximum length. This file sends such values into every text input
 * of every route the app registers, so a new route is covered the day it is added.
 */

let t: TestApp;
let superAdmin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  ({ headers: superAdmin } = await signInAs(t, ['super-admin']));
});
afterAll(async () => {
  await t?.close();
});

const characters = (attribute: string) => `The ${attribute} contains characters that are not allowed.`;
/** How the error handler names a field in its messages: its label of the catalogue. */
const attributeOf = (field: string) => fieldLabel(field);

const BODY_LIMIT = 1024 * 1024;
const LONGEST = 'a'.repeat(BODY_LIMIT); // 1,048,576 characters: a body holding it is over the limit
const LONG = 'a'.repeat(1_000_000); // fits under the 1 MiB body limit, so the schema must refuse it
const SURROGATE_MARK = 'SURROGATE-PLACEHOLDER';

/** Routes that take an uploaded file: their file name is tested below, by hand. */
const UPLOAD_ROUTES = [
  'POST /api/v1/reports/:uuid/file',
  'POST /api/v1/history-imports',
  'PUT /api/v1/admin/markets/:id/logotype',
  'PUT /api/v1/companies/:id/logotype',
  'POST /api/v1/communications/:uuid/attachments',
];

/**
 * Routes whose body is a file's content sent as the body (JSON or CSV rows), read as bytes by the
 * route and judged by the report file's rules, not by the schema the document shows: their
 * inputs are tested in imports.rows.test.ts (a NUL is a cell no rule accepts, an unknown key 422).
 */
const RAW_BODY_ROUTES = ['PUT /api/v1/reports/:uuid/rows'];

type Where = 'params' | 'querystring' | 'body';
interface TextInput {
  where: Where;
  path: (string | number)[];
}
interface ZodLike {
  _zod: { def: Record<string, unknown> & { type: string } };
}

/**
 * The paths of a schema where a client may send text. Unknown schema types fail the test, so that
 * the walker learns them rather than skipping inputs silently.
 */
function textPaths(schema: ZodLike, prefix: (string | number)[], route: string): (string | number)[][] {
  const def = schema._zod.def;
  const walk = (inner: unknown, path = prefix) => textPaths(inner as ZodLike, path, route);
  switch (def.type) {
    case 'string':
    case 'enum':
    case 'unknown':
    case 'any':
      return [prefix];
    case 'literal':
      return (def.values as unknown[]).some((v) => typeof v === 'string') ? [prefix] : [];
    case 'number':
    case 'int':
    case 'boolean':
    case 'null':
    case 'undefined':
    case 'date':
    case 'bigint':
      return [];
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([key, value]) => walk(value, [...prefix, key]));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return walk(def.innerType);
    case 'pipe':
      return walk(def.in);
    case 'transform':
      // The input side of a preprocess: anything, so text too.
      return [prefix];
    case 'array':
      return walk(def.element, [...prefix, 0]);
    case 'record':
      return walk(def.valueType, [...prefix, 'x']);
    case 'union': {
      const seen = new Map<string, (string | number)[]>();
      for (const option of def.options as unknown[]) for (const p of walk(option)) seen.set(p.join('.'), p);
      return [...seen.values()];
    }
    default:
      throw new Error(`${route}: the input walker does not know Zod type "${def.type}" at ${prefix.join('.') || '(root)'}; teach it`);
  }
}

const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
const apiRoutes = () => t.app.registeredRoutes.filter((r) => r.url.startsWith('/api/'));
const paramNames = (url: string) => [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!).concat(url.endsWith('*') ? ['*'] : []);
const isUpload = (route: RouteOptions) => ((route.schema as { consumes?: string[] } | undefined)?.consumes ?? []).includes('multipart/form-data');

function inputsOf(route: RouteOptions, method: string): TextInput[] {
  const name = `${method} ${route.url}`;
  const schema = (route.schema ?? {}) as { querystring?: ZodLike; body?: ZodLike };
  const out: TextInput[] = paramNames(route.url).map((p) => ({ where: 'params' as const, path: [p] }));
  // Every query value is text on the wire, numbers included.
  if (schema.querystring) out.push(...Object.keys(schema.querystring._zod.def.shape ?? {}).map((k) => ({ where: 'querystring' as const, path: [k] })));
  if (schema.body && !RAW_BODY_ROUTES.includes(name)) out.push(...textPaths(schema.body, [], name).map((path) => ({ where: 'body' as const, path })));
  return out;
}

/** A value for the parameters not under test; they only need to reach the route. */
// Records that do not exist, so that a request getting through changes nothing (DELETE /admin/users/:id).
const paramValue = (name: string) => (name === 'uuid' ? randomUUID() : name === 'locale' ? 'en-US' : name === '*' ? 'x' : '987654321');

function bodyWith(path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return typeof head === 'number' ? [bodyWith(rest, value)] : { [head!]: bodyWith(rest, value) };
}

type Bad = 'nul' | 'surrogate' | 'longest' | 'long';
/** The request for one bad value in one input: in the URL it is percent-encoded, in JSON raw. */
function requestFor(route: RouteOptions, method: string, input: TextInput, bad: Bad) {
  const text = { nul: 'a\u0000b', surrogate: SURROGATE_MARK, longest: LONGEST, long: LONG }[bad];
  const inUrl = (v: string) => (v === SURROGATE_MARK ? 'a%ED%A0%80b' : encodeURIComponent(v));
  let url = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, p: string) => (input.where === 'params' && input.path[0] === p ? inUrl(text) : paramValue(p)));
  if (url.endsWith('*')) url = url.slice(0, -1) + (input.where === 'params' && input.path[0] === '*' ? inUrl(text) : 'x');
  if (input.where === 'querystring') url += `?${String(input.path[0])}=${inUrl(text)}`;
  let payload: string | undefined;
  if (input.where === 'body') {
    // JSON.stringify would turn a lone surrogate into "\ud800" anyway; the mark makes it explicit.
    payload = JSON.stringify(bodyWith(input.path, text)).replace(SURROGATE_MARK, 'a\\ud800b');
  }
  return t.app.inject({
    method: method as 'GET',
    url,
    // Signing out would end the session the other requests use.
    headers: { ...(route.url === '/api/v1/auth/logout' ? XHR : superAdmin), ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { payload } : {}),
  });
}

describe('every text input of every route (NUL bytes, broken UTF-16, huge strings)', () => {
  it('when the app is built, then its routes are collected (the tests below cannot pass on an empty list)', () => {
    expect(apiRoutes().length).toBeGreaterThan(60);
    expect(apiRoutes().map((r) => r.url)).toContain('/api/v1/auth/login');
  });

  it('when a route takes an uploaded file, then it is one whose file name is tested below', () => {
    const uploads = apiRoutes().flatMap((r) => (isUpload(r) ? methodsOf(r).map((m) => `${m} ${r.url}`) : []));
    expect(uploads.sort()).toEqual([...UPLOAD_ROUTES].sort());
  });

  it('when any text input holds a NUL, half a surrogate pair or a huge string, then never 5xx, and bad characters are 422 on that field', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const route of apiRoutes()) {
      for (const method of methodsOf(route)) {
        const name = `${method} ${route.url}`;
        const inputs = inputsOf(route, method);
        // A field the route does not know is still input: it must not get past either.
        inputs.push({ where: 'querystring', path: ['unexpected'] });
        if (method !== 'GET' && !isUpload(route) && !RAW_BODY_ROUTES.includes(name)) inputs.push({ where: 'body', path: ['unexpected'] });
        for (const input of inputs) {
          const field = input.path.join('.');
          const where = `${name} ${input.where} ${field}`;
          for (const bad of ['nul', 'surrogate', 'longest', 'long'] as Bad[]) {
            const res = await requestFor(route, method, input, bad);
            sent++;
            const body = res.headers['content-type']?.toString().includes('json')
              ? (res.json() as { message?: string; errors?: Record<string, string[]> })
              : {};
            if (res.statusCode >= 500) {
              failures.push(`${where} ${bad}: ${res.statusCode} ${res.body.slice(0, 120)}`);
              continue;
            }
            // In a URL, half a surrogate pair is invalid UTF-8 that decodes to U+FFFD: nothing to refuse.
            const refusable = bad === 'nul' || (bad === 'surrogate' && input.where === 'body');
            if (refusable) {
              const expected = { message: characters(attributeOf(field)), errors: { [field]: [characters(attributeOf(field))] } };
              if (res.statusCode !== 422 || JSON.stringify(body) !== JSON.stringify(expected)) {
                failures.push(`${where} ${bad}: ${res.statusCode} ${JSON.stringify(body).slice(0, 160)}`);
              }
            } else if (bad === 'longest' && input.where === 'body' && res.statusCode !== 413) {
              failures.push(`${where} ${bad}: ${res.statusCode}, expected 413`);
            } else if (bad === 'long' && input.where !== 'params' && field !== 'unexpected') {
              // The schema itself must refuse it (a maximum length, a format, a list of values).
              const refused = res.statusCode === 422 && Object.keys(body.errors ?? {}).some((k) => k === field || k.startsWith(`${field}.`));
              if (!refused) failures.push(`${where} ${bad}: ${res.statusCode} ${JSON.stringify(body).slice(0, 160)}`);
            }
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(500);
    // As one text, so that a failure lists every input that failed, not the first few.
    expect(failures.join('\n')).toBe('');
  }, 180_000); // every input of every route, four bad values each: some thousand requests (30 s and more here)

  it('when a uuid in the address has the right length but is not one (36 hyphens, letters past f), then 404 or a refusal, never 5xx', async () => {
    const routes = apiRoutes().filter((r) => r.url.includes(':uuid') && r.url !== '/api/v1/auth/logout');
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const route of routes) {
      for (const method of methodsOf(route)) {
        for (const fake of ['-'.repeat(36), 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', '0123456789abcdef0123456789abcdef----']) {
          const url = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, p: string) => (p === 'uuid' ? fake : paramValue(p)));
          const res = await t.app.inject({ method: method as 'GET', url, headers: superAdmin, ...(method === 'GET' ? {} : { payload: {} }) });
          if (res.statusCode >= 500) failures.push(`${method} ${route.url} ${fake}: ${res.statusCode}`);
        }
      }
    }
    expect(failures.join('\n')).toBe('');
  });

  it("when the caller is not signed in, then bad characters are still 422 (checked before the route's own hooks)", async () => {
    const res = await t.app.inject({ url: '/api/v1/markets?search=ab%00c' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: characters('search'), errors: { search: [characters('search')] } });
  });

  it('when an object key holds a NUL, then 422 on the object holding it', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/organizations/1/settings',
      headers: { ...superAdmin, 'content-type': 'application/json' },
      payload: '{"settings":{"deviation\\u0000percentage":5}}',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: characters('settings'), errors: { settings: [characters('settings')] } });
  });

  it('when a tab, a line feed or a carriage return is in a text, then it is accepted as text', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/currencies',
      headers: superAdmin,
      payload: { iso_code: 'XTB', name: 'Line one\r\n\tline two' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.name).toBe('Line one\r\n\tline two');
  });

  it('when another control character (U+001F) is in a sign-in e-mail, then 422 on email', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: XHR, payload: { email: 'a\u001fb@example.test', password: 'x' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: characters('e-mail address'), errors: { email: [characters('e-mail address')] } });
  });

  it('when a JSON body is nested a hundred thousand levels deep, then 4xx, not a stack overflow', async () => {
    const depth = 100_000;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/currencies',
      headers: { ...superAdmin, 'content-type': 'application/json' },
      payload: `{"name":${'['.repeat(depth)}"a\\u0000"${']'.repeat(depth)}}`,
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

/*
 * A write body's key that its schema does not name used to be dropped without a word, so a
 * misspelt list (`markts`, `markets` for `market_ids`) left the list out and a PUT emptied it.
 * Every object of every write body, at any depth, now refuses such a key with a 422 that names
 * it; this walks every write route the app registers, so a new one is covered the day it is added.
 */
const UNKNOWN = 'unexpected_key';
const notAllowed = (key: string) => `The ${key} field is not allowed.`;
/** Write routes that take no JSON body: actions on a record, sign-out, and the uploads above. */
const BODILESS_WRITE_ROUTES = [
  ...UPLOAD_ROUTES,
  'POST /api/v1/auth/refresh',
  'POST /api/v1/auth/logout',
  'POST /api/v1/communications/:uuid/draft',
  'POST /api/v1/communications/:uuid/retry',
  'POST /api/v1/history-imports/:uuid/cancel',
  'POST /api/v1/history-imports/:uuid/import',
  'POST /api/v1/history-imports/:uuid/publish',
  'POST /api/v1/information-modals/:id/dismiss',
  'POST /api/v1/periods/:uuid/open',
  'POST /api/v1/periods/:uuid/close',
  'POST /api/v1/periods/:uuid/publish',
  'POST /api/v1/periods/:uuid/republish',
  'POST /api/v1/periods/:uuid/unpublish',
  'POST /api/v1/releases/:id/view',
  'POST /api/v1/reports/:uuid/copy-previous',
  'POST /api/v1/reports/:uuid/preflight',
  'POST /api/v1/users/me/two-factor/setup',
];
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Paths of every object a body schema holds, the body itself included: where a client could add a key. */
function objectPaths(schema: ZodLike, prefix: (string | number)[]): (string | number)[][] {
  const def = schema._zod.def;
  const walk = (inner: unknown, path = prefix) => objectPaths(inner as ZodLike, path);
  switch (def.type) {
    case 'object':
      return [prefix, ...Object.entries(def.shape as Record<string, unknown>).flatMap(([key, value]) => walk(value, [...prefix, key]))];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return walk(def.innerType);
    case 'pipe':
      return walk(def.in);
    case 'array':
      return walk(def.element, [...prefix, 0]);
    case 'union':
      return (def.options as unknown[]).flatMap((option) => walk(option));
    default:
      // Records take keys of the client's choosing (settings); scalars hold none.
      return [];
  }
}

describe('every object of every write body refuses a key it does not name', () => {
  const writeRoutes = () =>
    apiRoutes().flatMap((route) =>
      methodsOf(route)
        .filter((m) => WRITE_METHODS.includes(m))
        .map((method) => ({ route, method })),
    );
  const bodyOf = (route: RouteOptions) => (route.schema as { body?: ZodLike } | undefined)?.body;

  it('when a write route takes no JSON body, then it is one of the actions and uploads listed here', () => {
    const bodiless = writeRoutes().filter(({ route, method }) => method !== 'DELETE' && !bodyOf(route));
    expect(bodiless.map(({ route, method }) => `${method} ${route.url}`).sort()).toEqual([...BODILESS_WRITE_ROUTES].sort());
  });

  it('when any object of a write body holds an unknown key, then 422 naming that key on its path, whoever may call the route', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const { route, method } of writeRoutes()) {
      const schema = bodyOf(route);
      if (!schema || RAW_BODY_ROUTES.includes(`${method} ${route.url}`)) continue;
      for (const path of objectPaths(schema, [])) {
        const payload = bodyWith(path, { [UNKNOWN]: 1 });
        const url = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, p: string) => paramValue(p));
        const res = await t.app.inject({ method: method as 'POST', url, headers: superAdmin, payload: payload as object });
        sent++;
        const field = [...path, UNKNOWN].join('.');
        const body = res.json() as { message?: string; errors?: Record<string, string[]> };
        const named = res.statusCode === 422 && JSON.stringify(body.errors?.[field]) === JSON.stringify([notAllowed(UNKNOWN)]);
        // The top-level message names the unknown key before any field it left out.
        const first = path.length > 0 || body.message === notAllowed(UNKNOWN);
        if (!named || !first) failures.push(`${method} ${route.url} ${field}: ${res.statusCode} ${JSON.stringify(body).slice(0, 200)}`);
      }
    }
    expect(sent).toBeGreaterThan(30);
    expect(failures.join('\n')).toBe('');
  }, 60_000);

  it('when the unknown key is a name of Object.prototype ("constructor", "toString"), then 422 naming it, never 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/clusters',
      headers: superAdmin,
      payload: { name: 'Prototype', market_ids: [], constructor: 1, toString: 2 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: notAllowed('constructor'),
      errors: { constructor: [notAllowed('constructor')], toString: [notAllowed('toString')] },
    });
  });
});

describe('file names of uploads', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  /** A multipart body whose file name is given raw (filename=) or RFC 5987-encoded (filename*=). */
  function multipart(disposition: string, content: Buffer) {
    const boundary = '----mss-inputs-boundary';
    return {
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`, 'utf8'),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    };
  }
  const dispositions = ["filename*=UTF-8''logo%00.png", 'filename="logo\u0000.png"', "filename*=UTF-8''logo%01%1F.png"];
  const expected = { message: characters('file'), errors: { file: [characters('file')] } };

  it('when a logotype is uploaded under a name with a control character, then 422 on file and nothing is stored', async () => {
    const org = await createOrganization(t.db);
    const market = await createMarket(t.db, org.id);
    const company = await createCompany(t.db, [{ marketId: market.id, roles: ['reporter'] }]);
    const before = (await t.db.select({ id: files.id }).from(files)).length;
    for (const url of [`/api/v1/admin/markets/${market.id}/logotype`, `/api/v1/companies/${company.id}/logotype`]) {
      for (const disposition of dispositions) {
        const { payload, ...type } = multipart(disposition, PNG);
        const res = await t.app.inject({ method: 'PUT', url, headers: { ...superAdmin, ...type }, payload });
        expect(res.statusCode, `${url} ${disposition}`).toBe(422);
        expect(res.json()).toEqual(expected);
      }
    }
    expect((await t.db.select({ id: files.id }).from(files)).length).toBe(before);
  });

  it('when a communication attachment is uploaded under a name with a control character, then 422 on file and nothing is stored', async () => {
    const org = await createOrganization(t.db);
    const market = await createMarket(t.db, org.id);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/communications',
      headers: superAdmin,
      payload: {
        subject: 'Hello',
        body: '<p>Hello</p>',
        recipients: { market_ids: [market.id], roles: [], company_ids: [], period_uuid: null, report_statuses: [] },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = `/api/v1/communications/${created.json().data.uuid}/attachments`;
    const before = (await t.db.select({ id: files.id }).from(files)).length;
    for (const disposition of dispositions) {
      const { payload, ...type } = multipart(disposition, PNG);
      const res = await t.app.inject({ method: 'POST', url, headers: { ...superAdmin, ...type }, payload });
      expect(res.statusCode, disposition).toBe(422);
      expect(res.json()).toEqual(expected);
    }
    expect((await t.db.select({ id: files.id }).from(files)).length).toBe(before);
    const { payload, ...type } = multipart('filename="logo.png"', PNG);
    expect((await t.app.inject({ method: 'POST', url, headers: { ...superAdmin, ...type }, payload })).statusCode).toBe(201);
  });

  it('when a history file is uploaded under a name with a control character, then 422 on file and no history import is stored', async () => {
    const before = (await t.db.select({ id: historyImports.id }).from(historyImports)).length;
    const org = await createOrganization(t.db);
    await createMarket(t.db, org.id);
    const admin = await createUser(t.db, { roles: ['admin'], organizationIds: [org.id] });
    const headers = { ...XHR, cookie: await signIn(t.app, admin.email) };
    for (const disposition of dispositions) {
      const { payload, ...type } = multipart(disposition, Buffer.from('Market;Period'));
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/history-imports', headers: { ...headers, ...type }, payload });
      expect(res.statusCode, disposition).toBe(422);
      expect(res.json()).toEqual(expected);
    }
    expect((await t.db.select({ id: historyImports.id }).from(historyImports)).length).toBe(before);
    const { payload, ...type } = multipart('filename="history.csv"', Buffer.from('Market;Period'));
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/history-imports', headers: { ...headers, ...type }, payload })).statusCode).toBe(202);
  });

  it('when a report file is uploaded under a name with a control character, then 422 on file and no import is stored', async () => {
    const org = await createOrganization(t.db);
    const market = await createMarket(t.db, org.id);
    const company = await createCompany(t.db, [{ marketId: market.id, roles: ['reporter'] }]);
    const reporter = await createUser(t.db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: company.id });
    const period = await t.app.inject({
      method: 'POST',
      url: '/api/v1/periods',
      headers: superAdmin,
      payload: { market_id: market.id, title: '2026-11', starts_on: '2026-11-01', ends_on: '2026-11-30' },
    });
    expect(period.statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/periods/${period.json().data.uuid}/open`, headers: superAdmin })).statusCode).toBe(200);
    const [report] = await t.db.select().from(reports).where(eq(reports.company_id, company.id));
    const headers = { ...XHR, cookie: await signIn(t.app, reporter.email) };
    for (const disposition of dispositions) {
      const { payload, ...type } = multipart(disposition, Buffer.from('not really a spreadsheet'));
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${report!.uuid}/file`, headers: { ...headers, ...type }, payload });
      expect(res.statusCode, disposition).toBe(422);
      expect(res.json()).toEqual(expected);
    }
    expect(await t.db.select().from(imports).where(eq(imports.report_id, report!.id))).toEqual([]);
    // A plain name still goes through.
    const { payload, ...type } = multipart('filename="report.xlsx"', Buffer.from('not really a spreadsheet'));
    const ok = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${report!.uuid}/file`, headers: { ...headers, ...type }, payload });
    expect(ok.statusCode).toBe(202);
  });
});
