import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { sendError } from './errors.ts';

/**
 * The web app (web/dist, when built): its files, and index.html for every path outside the API so
 * that the web app's router answers it; a path of the API that no route has is a 404 of the API.
 */
export const webPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const indexHtml = path.join(config.webDist, 'index.html');
    const hasWeb = fs.existsSync(indexHtml);
    if (hasWeb) {
      // wildcard: files are looked up per request, so a rebuilt web/dist is served without a restart.
      // Compressed at build time (scripts/compress-assets.mjs: .br and .gz beside each file), sent
      // as the browser accepts. Built assets carry a content hash in their name: cached for a year
      // and never asked again; anything else is revalidated.
      await app.register(fastifyStatic, {
        root: config.webDist,
        wildcard: true,
        index: false,
        preCompressed: true,
        cacheControl: false,
        setHeaders: (reply: FastifyReply, filePath: string) => {
          const hashed = path.relative(config.webDist, filePath).startsWith(`assets${path.sep}`);
          reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }
    const sendIndex = (reply: FastifyReply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    if (hasWeb) app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
    app.setNotFoundHandler((request, reply) => {
      // The web app owns every path outside /api (React Router shows its own 404 page), except
      // missing build assets, which must not come back as HTML.
      if (hasWeb && request.method === 'GET' && !request.url.startsWith('/api/') && !request.url.startsWith('/assets/')) {
        return sendIndex(reply);
      }
      return sendError(new AppError('not_found', 'generic.not_found'), request, reply);
    });
  },
  { name: 'web' },
);
