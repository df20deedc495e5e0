import { z } from 'zod';
import { ENUMERATIONS, LOCALES } from '@mss/contracts/enums';
import { enumLabel } from '@mss/contracts/messages';
import { enumsResponseSchema, type Enumerations } from '@mss/contracts/protocol';
import type { Locale } from '@mss/contracts/enums';
import type { App } from '../../context.ts';

export function buildEnumerations(locale: Locale): Enumerations {
  const out: Enumerations = {};
  for (const [name, values] of Object.entries(ENUMERATIONS)) {
    const i18n: Record<string, string> = {};
    for (const value of Object.values(values)) i18n[String(value)] = enumLabel(name, value, locale);
    out[name] = { values: { ...values }, i18n };
  }
  return out;
}

export function protocolRoutes(app: App) {
  app.get(
    '/protocol/enums/:locale',
    {
      schema: {
        tags: ['protocol'],
        summary: 'Every enumeration with its values and translated labels',
        params: z.object({ locale: z.enum(LOCALES) }),
        response: { 200: enumsResponseSchema },
      },
    },
    async (request, reply) => {
      // Public and the same for everyone: let browsers cache it for a while.
      reply.header('Cache-Control', 'public, max-age=300');
      return { data: buildEnumerations(request.params.locale) };
    },
  );
}
