import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EnumerationName, Locale } from '@mss/contracts/enums';
import type { Enumerations } from '@mss/contracts/protocol';
import { api, data } from './client.ts';
import { enumerationLocale } from './locale.ts';
import { getSession } from './session.ts';

export const protocolKeys = {
  all: ['protocol'] as const,
  enumerations: (locale: string) => [...protocolKeys.all, 'enumerations', locale] as const,
};

export function fetchEnumerations(locale: Locale): Promise<Enumerations> {
  return api.get('/protocol/enums/{locale}', { path: { locale } }).then(data);
}

/** Enumerations do not change while the app runs: fetched once per locale (the signed-in user's, else the browser's). */
export function enumerationsQuery(locale: Locale = enumerationLocale(getSession().user?.locale)) {
  return queryOptions({
    queryKey: protocolKeys.enumerations(locale),
    queryFn: () => fetchEnumerations(locale),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function useEnumerations(locale?: Locale) {
  return useQuery(enumerationsQuery(locale));
}

/** The translated label of one enumeration value, e.g. enumLabel(enums, 'role', 'reporter'). */
export function enumLabel(enums: Enumerations | undefined, name: EnumerationName, value: string | number): string | undefined {
  return enums?.[name]?.i18n[String(value)];
}
