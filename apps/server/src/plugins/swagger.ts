import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Access } from './auth.js';

export const API_PREFIX = '/api/v1';

/** The OpenAPI extension naming who may call an operation: `public`, `user`, or `{ permission }`. */
export const ACCESS_EXTENSION = 'x-access';

/** OpenAPI from the contract's zod schemas, at /api/v1/openapi.json, with a docs page at /api/v1/docs. */
export const swaggerPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Data Platform API',
          description: 'Accounts, authorization, tenants, contact and subscription billing.',
          version: '0.1.0',
        },
        components: {
          securitySchemes: {
            OAuth2PasswordBearer: {
              type: 'oauth2',
              flows: { password: { tokenUrl: `${API_PREFIX}/login/access-token`, scopes: {} } },
            },
          },
        },
      },
      // Every operation carries its declared access level (the access tests walk the document by
      // it) and, unless public, the bearer security requirement.
      transform: (input) => {
        const transformed = jsonSchemaTransform(input);
        const access = (input.route.config as { access?: Access } | undefined)?.access;
        if (access === undefined || (transformed.schema as { hide?: boolean }).hide) return transformed;
        return {
          ...transformed,
          schema: {
            ...transformed.schema,
            [ACCESS_EXTENSION]: access,
            ...(access === 'public' ? {} : { security: [{ OAuth2PasswordBearer: [] }] }),
          },
        };
      },
    });
    await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, staticCSP: true });
    app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'swagger' },
);
