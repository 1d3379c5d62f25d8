import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

/**
 * How the API compresses its answers (@fastify/compress, registered in app.ts with these): Brotli or
 * gzip, whichever the client prefers, for a compressible answer of 1 KiB or more.
 */
export const COMPRESSION = { encodings: ['br', 'gzip'], threshold: 1024 } satisfies {
  encodings: Encoding[];
  threshold: number;
};

type Encoding = 'br' | 'gzip';

/** An answer made once and sent as is to many requests: its bytes, and each encoding of them. */
export interface EncodedAnswer {
  type: string;
  identity: Buffer;
  encoded: Partial<Record<Encoding, Buffer>>;
  /** Every byte held, for a bounded cache. */
  size: number;
}

/** @fastify/compress's own settings: Brotli at quality 4 (its default), gzip at zlib's. */
const compressors: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (body) => gzipSync(body),
};

/** `compressible`: whether @fastify/compress would compress this type (JSON and SVG are; PNG is not). */
export function encodeAnswer(body: string | Buffer, type: string, compressible: boolean): EncodedAnswer {
  const identity = typeof body === 'string' ? Buffer.from(body) : body;
  const encoded: EncodedAnswer['encoded'] = {};
  if (compressible && identity.length >= COMPRESSION.threshold) {
    for (const encoding of COMPRESSION.encodings) encoded[encoding] = compressors[encoding](identity);
  }
  const size = identity.length + Object.values(encoded).reduce((sum, bytes) => sum + bytes.length, 0);
  return { type, identity, encoded, size };
}

// The header's choices remembered, a few hundred at most (a client names whatever it likes).
const negotiator = new Negotiator<Encoding>({
  supportedValues: COMPRESSION.encodings,
  cache: new LRUCache<string, string>({ max: 256 }),
});
/** As @fastify/compress reads Accept-Encoding: `*` and `x-gzip` stand for gzip. */
const GZIP_ALIAS = /\*|x-gzip/gu;

/**
 * Sends a made answer in the encoding @fastify/compress would have chosen for this request. An
 * encoded answer goes with its Content-Encoding and Vary set, which compress leaves alone; the
 * identity bytes are ones compress would not touch (too small, or not asked to be compressed).
 */
export function sendEncoded(request: FastifyRequest, reply: FastifyReply, answer: EncodedAnswer) {
  const accepted = request.headers['accept-encoding'];
  const encoding =
    accepted === undefined || request.headers['x-no-compression'] !== undefined
      ? null
      : negotiator.negotiate(accepted.toLowerCase().replace(GZIP_ALIAS, 'gzip'));
  const bytes = encoding === null ? undefined : answer.encoded[encoding];
  reply.type(answer.type);
  if (bytes === undefined) return reply.send(answer.identity);
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!String(vary).includes('accept-encoding')) reply.header('vary', `${String(vary)}, accept-encoding`);
  return reply.header('content-encoding', encoding).send(bytes);
}
