import { DEFAULT_LOCALE, type Locale, isLocale } from '@mss/contracts/enums';
import { negotiateLocale } from '@mss/contracts/messages';

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/** The first browser language the product supports (full tag or primary language), if any. */
export function supportedBrowserLocale(): Locale | null {
  for (const tag of browserLanguages()) {
    const locale = negotiateLocale(tag);
    // negotiateLocale answers en-US both for English and for "nothing matched".
    if (locale !== DEFAULT_LOCALE || tag.toLowerCase().startsWith('en')) return locale;
  }
  return null;
}

/**
 * docs/product.md §7: enumerations are fetched in the browser language, falling back to sv-SE;
 * once signed in, in the user's own language (the interface's), so that a status reads in the
 * language of the screen around it.
 */
export function enumerationLocale(userLocale?: string | null): Locale {
  if (isLocale(userLocale)) return userLocale;
  return supportedBrowserLocale() ?? 'sv-SE';
}

/** The interface language: the user's locale once signed in, else the browser's, else en-US. */
export function interfaceLocale(userLocale?: string | null): Locale {
  if (isLocale(userLocale)) return userLocale;
  return supportedBrowserLocale() ?? DEFAULT_LOCALE;
}
