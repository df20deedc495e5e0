import { i18n } from '../i18n/index.ts';

/*
 * One way to write dates and times per language, everywhere: the locale's medium date
 * ("Nov 10, 2026" in en-US, "10 nov. 2026" in sv-SE) and, for moments, its short time after it
 * ("Nov 10, 2026, 3:33 PM"). Calendar dates of the API (YYYY-MM-DD: deadlines, period bounds,
 * release dates) are days, not moments: they are written as they are, in no time zone, so a
 * deadline never moves a day for a user west of UTC.
 */

/** The app's language codes as Intl knows them (the spec's dk-DK and no-NO are Danish and Norwegian Bokmål). */
const INTL_LOCALE: Record<string, string> = { 'dk-DK': 'da-DK', 'no-NO': 'nb-NO' };
const intlLocale = (locale: string) => INTL_LOCALE[locale] ?? locale;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(locale: string, timeZone?: string): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone ?? ''}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) });
    dateFormats.set(key, format);
  }
  return format;
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A date of the API (YYYY-MM-DD, or the day of an ISO moment in the user's time zone); '–' when absent. */
export function formatDate(value: string | null | undefined, locale: string = i18n.language || 'en-US'): string {
  if (!value) return '–';
  const day = CALENDAR_DATE.exec(value);
  if (day) return dateFormat(locale, 'UTC').format(new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))));
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateFormat(locale).format(date);
}

/** A moment of the API (ISO date-time) with its time, in the user's time zone; '–' when absent. */
export function formatDateTime(value: string | null | undefined, locale: string = i18n.language || 'en-US'): string {
  if (!value) return '–';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  let format = dateTimeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(locale, format);
  }
  return format.format(date);
}

/** Today in the browser's time zone, as YYYY-MM-DD (how deadlines are written). */
export function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** The deadline has passed: it was an earlier day than today. */
export function isPast(deadline: string | null, on = today()): boolean {
  return deadline !== null && deadline.slice(0, 10) < on;
}
