import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { z } from 'zod';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@mss/contracts/common';

/** The error body, once in the OpenAPI document (components.schemas.Error), referenced by every answer below. */
z.globalRegistry.add(errorBodySchema, { id: 'Error' });

/**
 * The answers every API route may give besides its own, declared once: the one error model's
 * statuses (docs/architecture.md §4). Not signed in (401), not allowed (403), not found or not
 * yours (404), in use or not in this state (409), invalid input (422).
 */
export const ERROR_RESPONSES = {
  401: errorBodySchema.describe('Not signed in, or an invalid token'),
  403: errorBodySchema.describe('Not allowed (or a state-changing request without X-Requested-With)'),
  404: errorBodySchema.describe('Not found, or not visible to the caller'),
  409: errorBodySchema.describe('In use, or not possible in the current state'),
  422: errorBodySchema.describe('Invalid input: a message, and one list of messages per field'),
} as const;

/** The OpenAPI document (`/api/docs/json`) and its viewer (`/api/docs`), generated from the routes' Zod schemas. */
export const openApiPlugin = fp(
  async (app) => {
    // Every API route with a schema declares the error answers (its own, where it has them, win).
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/v1/') || !route.schema || (route.schema as { hide?: boolean }).hide) return;
      route.schema.response = { ...ERROR_RESPONSES, ...(route.schema.response as object | undefined) };
    });
    await app.register(swagger, {
      openapi: {
        info: { title: 'Market Sales Statistics API', version: '1' },
        servers: [{ url: '/api/v1' }],
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'mss_session' },
            bearer: { type: 'http', scheme: 'bearer' },
          },
        },
        security: [{ session: [] }, { bearer: [] }],
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'openapi' },
);
