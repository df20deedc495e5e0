import { negotiateLocale } from '@mss/contracts/messages';
import type { Locale } from '@mss/contracts/enums';
import type { FastifyRequest } from 'fastify';

export function localeOf(request: FastifyRequest): Locale {
  return negotiateLocale(request.headers['accept-language']);
}
