import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isMessageKey, type FieldParams, type MessageKey, type MessageParams, translate } from '@mss/contracts/messages';
import { AppError, validationError } from '../errors.ts';
import { localeOf } from '../i18n.ts';

/**
 * The one error model (docs/architecture.md §9 "One error model"): every error, thrown by a
 * service (`AppError`), refused by a schema, or raised by a database constraint, answers
 * `{ message, errors? }` from the catalogue in the request's language. Registered before any other
 * plugin, so that their routes (the API docs) answer errors in the same shape.
 */
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => sendError(error, request, reply));
  },
  { name: 'errors' },
);

function render(request: FastifyRequest, key: MessageKey, params?: MessageParams, fields?: FieldParams): string {
  return translate(key, params, localeOf(request), fields);
}

/** The one error handler: `{ message, errors? }` from the catalogue, in the request's locale. */
export function sendError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    let errors: Record<string, string[]> | undefined;
    if (error.fieldErrors) {
      errors = {};
      for (const [field, list] of Object.entries(error.fieldErrors)) {
        // :attribute is the field's label (in the request's locale) unless the service named it.
        errors[field] = list.map((e) => render(request, e.key, e.params, { attribute: field, ...e.fields }));
      }
    }
    reply.headers(error.headers);
    // The top-level message of a field error names the field, as the field's own message does.
    const firstField = error.fieldErrors ? Object.keys(error.fieldErrors)[0] : undefined;
    const fields = { ...(firstField ? { attribute: firstField } : {}), ...error.fields };
    const nested = Object.fromEntries(Object.entries(error.nested).map(([name, message]) => [name, render(request, message.key, message.params)]));
    return reply.code(error.status).send({ message: render(request, error.messageKey, { ...error.params, ...nested }, fields), ...(errors ? { errors } : {}) });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    // A Map: an unknown key is the client's own text ("constructor" must not reach Object.prototype).
    const errors = new Map<string, string[]>();
    const add = (field: string, message: string) => errors.set(field, [...(errors.get(field) ?? []), message]);
    // Unknown keys first: a misspelt key is why its field is missing, so the message names it.
    const issues = [...error.validation].sort((a, b) => Number(b.keyword === 'unrecognized_keys') - Number(a.keyword === 'unrecognized_keys'));
    const context = (error as { validationContext?: string }).validationContext;
    const input = context === 'body' ? request.body : context === 'querystring' ? request.query : context === 'params' ? request.params : undefined;
    for (const issue of issues) {
      const segments = issue.instancePath.split('/').slice(1);
      const path = segments.join('.');
      if (issue.keyword === 'unrecognized_keys') {
        // One field error per key, under the key's own path, naming it as sent (it has no label).
        for (const key of (issue.params as { keys?: string[] }).keys ?? []) {
          add(path ? `${path}.${key}` : key, render(request, 'validation.unknown_key', { attribute: key }));
        }
        continue;
      }
      const field = path || 'body';
      const params = (issue.params ?? {}) as ZodIssueLike;
      // A field that was not sent is required, whatever its schema would have said of a value
      // (a list of allowed numbers says "invalid" of anything it does not hold, nothing included).
      const key = path && valueAt(input, segments) === undefined ? 'validation.required' : messageKeyOfIssue(issue.keyword, params, issue.message ?? '', field);
      add(
        field,
        render(
          request,
          key,
          {
            min: String(params.minimum ?? ''),
            max: String(params.maximum ?? ''),
            digits: String(params.params?.digits ?? ''),
            scale: String(params.params?.scale ?? ''),
          },
          { attribute: field },
        ),
      );
    }
    const first = [...errors.values()][0]?.[0];
    return reply.code(422).send({ message: first ?? render(request, 'generic.validation'), errors: Object.fromEntries(errors) });
  }
  // Database constraints are the last line of defence; services check first with clear messages.
  // Drizzle wraps the driver's error; the SQLSTATE is on the cause.
  const pgError = (error as { cause?: PgErrorLike }).cause ?? (error as PgErrorLike);
  const pgCode = (error as { code?: string }).code ?? pgError.code;
  if (pgCode === '23503') return reply.code(409).send({ message: render(request, 'generic.in_use', { model: render(request, 'model.record') }) });
  if (pgCode === '23505') {
    // The loser of a race that the service's own check could not see answers as that check would.
    const unique = pgError.constraint ? UNIQUE_FIELDS[pgError.constraint] : undefined;
    if (unique) return sendError(validationError(unique.field, unique.key), request, reply);
    return reply.code(409).send({ message: render(request, 'generic.conflict') });
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return reply.code(413).send({ message: render(request, 'generic.payload_too_large') });
  if (status === 415 || status === 400) {
    return reply.code(422).send({ message: render(request, 'generic.validation') });
  }
  if (status === 429) return reply.code(429).send({ message: error.message });
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.warn({ err: error }, 'request refused');
  return reply.code(status >= 400 && status < 500 ? status : 500).send({ message: render(request, 'generic.error') });
}

interface PgErrorLike {
  code?: string;
  constraint?: string;
}

/** Unique indexes whose violation is a field error of the form that was sent (422, as the services answer). */
const UNIQUE_FIELDS: Record<string, { field: string; key: MessageKey }> = {
  organizations_name_lower_unique: { field: 'name', key: 'validation.unique' },
  clusters_organization_name_lower_unique: { field: 'name', key: 'validation.unique' },
  users_email_unique: { field: 'email', key: 'auth.email_in_use' },
  currencies_iso_code_unique: { field: 'iso_code', key: 'validation.unique' },
  markets_organization_iso_code_unique: { field: 'iso_code', key: 'validation.unique' },
  codes_organization_code_unique: { field: 'code', key: 'validation.unique' },
  releases_version_unique: { field: 'version', key: 'validation.unique' },
  currency_conversions_pair_date_unique: { field: 'valid_from', key: 'currency_conversions.exists' },
};

interface ZodIssueLike {
  /** A custom issue's own params: a decimal string out of its column's shape (decimalInputSchema). */
  params?: { decimal?: boolean; digits?: number; scale?: number };
  origin?: string;
  format?: string;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
}

/** What a request part holds at a path of an issue; undefined when it was not sent. */
function valueAt(root: unknown, segments: string[]): unknown {
  let value = root;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** A record's id ("company_id", "market_ids.2"): 0 or less names no record. */
const isIdField = (field: string) => /(^|\.)[a-z_]*_id$|(^|\.)[a-z_]*_ids\.\d+$/.test(field);

/**
 * The catalogue key of a schema's complaint. A schema may name the key itself as its message
 * (`.regex(…, 'validation.currency_code')`); otherwise the kind of issue decides.
 */
function messageKeyOfIssue(code: string, issue: ZodIssueLike, message: string, field: string): MessageKey {
  if (message.startsWith('validation.') && isMessageKey(message)) return message;
  switch (code) {
    case 'invalid_type':
      if (/received (undefined|null)$/.test(message)) return 'validation.required';
      if (issue.expected === 'int') return 'validation.integer';
      if (issue.expected === 'number') return 'validation.numeric';
      if (issue.expected === 'string') return 'validation.string';
      if (issue.expected === 'boolean') return 'validation.boolean';
      if (issue.expected === 'array') return 'validation.array';
      return 'validation.invalid';
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'validation.required';
      if (issue.origin === 'string') return 'validation.min.string';
      // positive(): 0 is refused. No record has the id 0 or less.
      if (issue.inclusive === false) return isIdField(field) ? 'validation.in' : 'validation.gt.numeric';
      return 'validation.min.numeric';
    case 'too_big':
      return issue.origin === 'string' ? 'validation.max.string' : 'validation.max.numeric';
    case 'invalid_format':
      if (issue.format === 'email') return 'validation.email';
      if (issue.format === 'uuid') return 'validation.uuid';
      if (issue.format === 'datetime' || issue.format === 'date') return 'validation.date';
      return 'validation.invalid';
    case 'invalid_value':
    case 'invalid_union':
      return 'validation.in';
    case 'custom':
      return issue.params?.decimal ? 'validation.decimal' : 'validation.invalid';
    default:
      return 'validation.invalid';
  }
}
