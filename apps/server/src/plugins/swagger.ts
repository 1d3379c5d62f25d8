import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export const API_PREFIX = '/api/v1';

/** The OpenAPI extension naming who may call an operation: `public`, `user`, or `{ permission }`. */
export const ACCESS_EXTENSION = 'x-access';

/**
 * Drops the named schemas no operation refers to: the zod provider emits an `…Input` twin of every
 * named schema, and only the output ones (the error bodies) are used.
 */
function withoutUnusedSchemas<Document extends { paths?: unknown; components?: { schemas?: Record<string, unknown> } }>(
  document: Document,
): Document {
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key !== '$ref' || typeof inner !== 'string') {
          visit(inner);
          continue;
        }
        const name = inner.replace('#/components/schemas/', '');
        if (used.has(name)) continue;
        used.add(name);
        visit(schemas[name]);
      }
    }
  };
  visit(document.paths);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...document.components, schemas: kept } };
}

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
      // Schemas the contract names (`.meta({ id })`: the error bodies) become components, referenced
      // from each operation instead of repeated in it.
      transformObject: (input) => withoutUnusedSchemas(jsonSchemaTransformObject(input)),
      // Every operation carries its declared access level (the access tests walk the document by
      // it) and, unless public, the bearer security requirement.
      transform: (input) => {
        const transformed = jsonSchemaTransform(input);
        const access = input.route.config?.access;
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
