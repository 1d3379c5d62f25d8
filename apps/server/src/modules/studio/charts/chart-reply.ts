import type { FastifyReply } from 'fastify';
import type { ChartDrawing } from './chart-drawing.js';

/**
 * Sends a drawing: SVG as text, PNG as bytes. The SVG is checked safe to inline, and is also sent
 * with a Content-Security-Policy that lets it run nothing and load nothing when opened on its own.
 */
export function sendDrawing(reply: FastifyReply, drawing: ChartDrawing, cacheControl: string) {
  reply
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  if (drawing.format === 'svg') return reply.type('image/svg+xml; charset=utf-8').send(drawing.body);
  return reply.type('image/png').send(drawing.body);
}
