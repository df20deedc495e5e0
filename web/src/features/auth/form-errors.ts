import { isApiError } from '../../api/http.ts';

/**
 * The 422 field errors of a server answer, one message per field, for `form.setErrors`.
 * Only fields the form has are returned; the rest is for the message above the form.
 */
export function fieldErrors(error: unknown, fields: readonly string[]): Record<string, string> {
  if (!isApiError(error)) return {};
  const out: Record<string, string> = {};
  for (const field of fields) {
    const message = error.fieldError(field);
    if (message) out[field] = message;
  }
  return out;
}
