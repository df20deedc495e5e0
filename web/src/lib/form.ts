import { isApiError } from '../api/http.ts';
import { feedback } from '../components/feedback.tsx';
import { i18n } from '../i18n/index.ts';

/**
 * The 422 field errors of a server answer mapped onto the fields of a form, one message each.
 * A server key names a field or a part of it ("market_ids.2", "markets.0.roles"): it is shown
 * on that field. Keys no field takes are returned separately, for the error modal.
 */
export function mapFieldErrors(
  error: unknown,
  fields: readonly string[],
  /** Server key → form field, where the form holds a value under another name. */
  aliases: Record<string, string> = {},
): { mapped: Record<string, string>; unmapped: string[] } {
  const mapped: Record<string, string> = {};
  const unmapped: string[] = [];
  if (!isApiError(error) || error.status !== 422) return { mapped, unmapped };
  for (const [key, messages] of Object.entries(error.errors)) {
    const message = messages[0];
    if (!message) continue;
    const alias = Object.keys(aliases).find((a) => key === a || key.startsWith(`${a}.`));
    const field = alias ? aliases[alias] : fields.find((f) => key === f || key.startsWith(`${f}.`));
    if (field) mapped[field] ??= message;
    else unmapped.push(message);
  }
  return { mapped, unmapped };
}

export interface FormLike {
  setErrors: (errors: Record<string, string>) => void;
}

/**
 * What a form does when saving fails: 422 field errors go onto the inputs; anything else
 * opens the error modal titled ":model not saved." with the server's message, or "Could not
 * save." when the server gave none (network failure, server error).
 * Returns the field errors it set.
 */
export function showSaveError(
  form: FormLike,
  error: unknown,
  fields: readonly string[],
  model: string,
  aliases: Record<string, string> = {},
): Record<string, string> {
  const { mapped, unmapped } = mapFieldErrors(error, fields, aliases);
  form.setErrors(mapped);
  if (Object.keys(mapped).length && !unmapped.length) return mapped;
  const serverMessage = isApiError(error) && error.status >= 400 && error.status < 500 ? error.message : null;
  const message = unmapped.length ? unmapped.join(' ') : (serverMessage ?? i18n.t('generic.could_not_save'));
  void feedback.error(message, i18n.t('generic.model_not_saved', { model }));
  return mapped;
}

/**
 * "The from currency field is required.": the server's own sentence and label for a field (the
 * shared catalogue's `attribute.<field>`), for checks made in the browser before sending.
 */
export function requiredMessage(field: string): string {
  return i18n.t('validation.required', { attribute: i18n.t(`attribute.${field}`) });
}

/** '' → null, for optional text fields sent as null. */
export const emptyToNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());
