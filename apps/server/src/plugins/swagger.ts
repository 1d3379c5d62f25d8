import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const API_PREFIX = '/api/v1';

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
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, staticCSP: true });
    app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'swagger' },
);
