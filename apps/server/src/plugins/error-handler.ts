import { ERROR_STATUS, type ErrorCode, type ValidationErrorItem } from '@dataplatform/contract';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  AppError,
  databaseUnavailable,
  genericErrorCode,
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

/** Client errors Fastify raises itself, with wording we are happy to show and their codes. */
const FRAMEWORK_CLIENT_ERRORS: Record<string, { detail: string; code: ErrorCode }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { detail: 'Request body is too large', code: 'body_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { detail: 'Unsupported media type', code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { detail: 'Invalid Content-Length header', code: 'bad_request' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { detail: 'Request body is empty', code: 'invalid_json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { detail: 'Request body is not valid JSON', code: 'invalid_json' },
  FST_ERR_CTP_EMPTY_TYPE: { detail: 'Content-Type header is empty', code: 'bad_request' },
  FST_ERR_CTP_INVALID_TYPE: { detail: 'Content-Type header is invalid', code: 'bad_request' },
};

/**
 * Sends the one error shape, `{ detail, code }`, with the status the contract gives the code: a
 * status and a code can never disagree.
 */
function sendError(
  reply: FastifyReply,
  code: ErrorCode,
  detail: string | ValidationErrorItem[],
  headers: Record<string, string> = {},
): FastifyReply {
  return reply.code(ERROR_STATUS[code]).headers(headers).send({ detail, code });
}

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
 * Every error leaves as `{ detail, code }`: `detail` a string, or a FastAPI-style array for invalid
 * input (422); `code` one of the contract's ErrorCode. Anything unexpected is logged with the request
 * id and answered with a generic 500.
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        return sendError(reply, error.errorCode, error.detail, error.headers);
      }
      if (hasZodFastifySchemaValidationErrors(error) || Array.isArray(error.validation)) {
        return sendError(reply, 'validation_failed', validationDetail(error));
      }
      if (isDataException(error)) {
        // A value validation let through that the database cannot hold: the input's fault, not ours.
        request.log.warn({ err: error }, 'database refused a value');
        return sendError(reply, 'bad_request', 'Invalid input');
      }
      if (isForeignKeyViolation(error)) {
        // A record the request refers to was deleted by a request that committed first.
        request.log.info({ err: error }, 'referenced record vanished');
        return sendError(reply, 'conflict', 'A record this request refers to no longer exists');
      }
      if (isDatabaseUnavailable(error)) {
        // An outage, not a bug: the client may retry; the pool reconnects once the server is back.
        request.log.warn({ err: error }, 'database unavailable');
        const unavailable = databaseUnavailable();
        return sendError(reply, unavailable.errorCode, unavailable.detail, unavailable.headers);
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const known = FRAMEWORK_CLIENT_ERRORS[error.code];
        if (known) return sendError(reply, known.code, known.detail);
        const detail = error.code?.startsWith('FST_') ? error.message : 'Bad Request';
        // A client error of a status the contract has no code for (none is known to occur) is a 400.
        return sendError(reply, genericErrorCode(status) ?? 'bad_request', detail);
      }
      request.log.error({ err: error }, 'unhandled error');
      return sendError(reply, 'internal_error', 'Internal Server Error');
    });
  },
  { name: 'error-handler' },
);

/** Errors the router raises before any hook runs (Fastify's `frameworkErrors` option). */
const ROUTER_CLIENT_ERRORS: Record<string, { detail: string; code: ErrorCode }> = {
  FST_ERR_BAD_URL: { detail: 'Malformed URL', code: 'bad_request' },
  FST_ERR_MAX_PARAM_LENGTH: { detail: 'URL path segment is too long', code: 'uri_too_long' },
};

/** Gives router-level failures (bad percent-encoding, overlong path segments) the `{ detail, code }` shape. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = ROUTER_CLIENT_ERRORS[error.code];
  if (known !== undefined) {
    void sendError(reply, known.code, known.detail);
    return;
  }
  request.log.error({ err: error }, 'router error');
  void sendError(reply, 'internal_error', 'Internal Server Error');
}

/** What Node's HTTP parser refuses before Fastify sees a request, in the product's shape. */
function clientErrorAnswer(code: string | undefined): { status: number; code: ErrorCode; detail: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: 'request_timeout', detail: 'The request did not arrive in time' };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: 'headers_too_large', detail: 'Request headers are too large' };
  }
  return { status: 400, code: 'bad_request', detail: 'Malformed request' };
}

/**
 * Fastify's `clientErrorHandler`: a request line or header Node cannot parse (too large, malformed,
 * not arrived in time) is answered `{ detail, code }` like every other error, then the connection
 * is closed, as Node does (the parser cannot find the next request on it).
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = clientErrorAnswer(error.code);
  this.log.debug({ err: error, status: answer.status }, 'client error before routing');
  if (socket.writable) {
    const body = JSON.stringify({ detail: answer.detail, code: answer.code });
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
