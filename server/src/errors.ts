import type { FieldParams, MessageKey, MessageParams } from '@mss/contracts/messages';

/** Error codes of the API and their HTTP status (one table, docs/architecture.md §9 "One error model"). */
export const ERROR_STATUS = {
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  validation: 422,
  throttled: 429,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Messages per field. `:attribute` is the field's label unless `params` names it; `fields` names
 * other placeholders that stand for fields (wire names), written as their labels in the locale.
 */
export type FieldErrors = Record<string, { key: MessageKey; params?: MessageParams; fields?: FieldParams }[]>;

/**
 * Placeholders of the top-level message filled with another message of the catalogue, in the
 * request's language: "The company :name" for `:model`, a period's state for `:status`. A name or a
 * state written into `params` by a service would stay English in every language.
 */
export type NestedParams = Record<string, { key: MessageKey; params?: MessageParams }>;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly messageKey: MessageKey,
    readonly params: MessageParams = {},
    readonly fieldErrors?: FieldErrors,
    readonly headers: Record<string, string> = {},
    /** Placeholders of the top-level message that stand for fields (see `FieldErrors`). */
    readonly fields: FieldParams = {},
    readonly nested: NestedParams = {},
  ) {
    super(messageKey);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const forbidden = (key: MessageKey = 'generic.forbidden') => new AppError('forbidden', key);
export const notFound = () => new AppError('not_found', 'generic.not_found');

const UUID_SHAPE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * 404 for a period the caller asked for and cannot reach. "The period (:title) does not exist."
 * names it only by a title the caller wrote: a uuid is not a title, and the real title of a
 * period the caller may not see must not be told, so a uuid (or nothing) is answered with the
 * generic "Could not find what you were looking for."
 */
export function periodNotFound(reference: string): AppError {
  const title = reference.trim();
  if (title === '' || UUID_SHAPE.test(title)) return notFound();
  return new AppError('not_found', 'period.not_found', { title });
}
export const unauthenticated = () => new AppError('unauthenticated', 'auth.unauthenticated');
/** 401 for a request whose Authorization header names no live token (malformed, unknown, expired or revoked). */
export const invalidToken = () => new AppError('unauthenticated', 'auth.invalid_token');

/** A 422 whose top-level message is the first field error, as the web forms expect. */
export function validationError(field: string, key: MessageKey, params?: MessageParams, fields?: FieldParams): AppError {
  return new AppError('validation', key, params, { [field]: [{ key, params, fields }] }, {}, fields);
}
