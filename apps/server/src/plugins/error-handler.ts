import type { ValidationErrorItem } from '@dataplatform/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  AppError,
  databaseUnavailable,
  isDataException,
  isDatabaseUnavailable,
  isForeignKeyViolation,
} from '../lib/errors.js';

/** Fastify's names for request parts, as FastAPI spells them in `loc`. */
const LOCATION_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** Client errors Fastify raises itself, with wording we are happy to show. */
const FRAMEWORK_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported media type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid Content-Length header',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_TYPE: 'Content-Type header is empty',
  FST_ERR_CTP_INVALID_TYPE: 'Content-Type header is invalid',
};

function locationOf(path: string): (string | number)[] {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

function validationDetail(error: FastifyError): ValidationErrorItem[] {
  const part = LOCATION_NAMES[error.validationContext ?? 'body'] ?? 'body';
  return (error.validation ?? []).flatMap((issue) => {
    const loc = [part, ...locationOf(issue.instancePath)];
    // zod reports every unexpected field in one issue on the object: name each field instead.
    const extraKeys = issue.keyword === 'unrecognized_keys' ? issue.params.keys : undefined;
    if (Array.isArray(extraKeys) && extraKeys.length > 0) {
      return extraKeys.map((key) => ({
        loc: [...loc, String(key)],
        msg: `Unrecognized key: "${String(key)}"`,
        type: issue.keyword,
      }));
    }
    return [{ loc, msg: issue.message ?? 'Invalid value', type: issue.keyword }];
  });
}

/**
 * Every error leaves as `{ detail }`: a string, or a FastAPI-style array for invalid input (422).
 * Anything unexpected is logged with the request id and answered with a generic 500.
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        return reply.code(error.statusCode).headers(error.headers).send({ detail: error.detail });
      }
      if (hasZodFastifySchemaValidationErrors(error) || Array.isArray(error.validation)) {
        return reply.code(422).send({ detail: validationDetail(error) });
      }
      if (isDataException(error)) {
        // A value validation let through that the database cannot hold: the input's fault, not ours.
        request.log.warn({ err: error }, 'database refused a value');
        return reply.code(400).send({ detail: 'Invalid input' });
      }
      if (isForeignKeyViolation(error)) {
        // A record the request refers to was deleted by a request that committed first.
        request.log.info({ err: error }, 'referenced record vanished');
        return reply.code(409).send({ detail: 'A record this request refers to no longer exists' });
      }
      if (isDatabaseUnavailable(error)) {
        // An outage, not a bug: the client may retry; the pool reconnects once the server is back.
        request.log.warn({ err: error }, 'database unavailable');
        const unavailable = databaseUnavailable();
        return reply.code(unavailable.statusCode).headers(unavailable.headers).send({ detail: unavailable.detail });
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const detail =
          FRAMEWORK_CLIENT_ERRORS[error.code] ?? (error.code?.startsWith('FST_') ? error.message : 'Bad Request');
        return reply.code(status).send({ detail });
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send({ detail: 'Internal Server Error' });
    });
  },
  { name: 'error-handler' },
);

/** Errors the router raises before any hook runs (Fastify's `frameworkErrors` option). */
const ROUTER_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_BAD_URL: 'Malformed URL',
  FST_ERR_MAX_PARAM_LENGTH: 'URL path segment is too long',
};

/** Gives router-level failures (bad percent-encoding, overlong path segments) the `{ detail }` shape. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const detail = ROUTER_CLIENT_ERRORS[error.code];
  if (detail !== undefined) {
    void reply.code(error.statusCode ?? 400).send({ detail });
    return;
  }
  request.log.error({ err: error }, 'router error');
  void reply.code(500).send({ detail: 'Internal Server Error' });
}
