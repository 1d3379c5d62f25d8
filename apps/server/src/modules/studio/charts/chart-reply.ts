import type { FastifyReply } from 'fastify';
import type { ChartDrawing } from './chart-drawing.js';

/** The Content-Type of a drawing in each format. */
export const DRAWING_TYPES = { svg: 'image/svg+xml; charset=utf-8', png: 'image/png' } as const;

/**
 * A drawing's headers: the SVG is checked safe to inline, and is also sent with a
 * Content-Security-Policy that lets it run nothing and load nothing when opened on its own.
 */
export function drawingHeaders(reply: FastifyReply, cacheControl: string) {
  return reply
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
}

/** Sends a drawing: SVG as text, PNG as bytes, with `drawingHeaders`. */
export function sendDrawing(reply: FastifyReply, drawing: ChartDrawing, cacheControl: string) {
  return drawingHeaders(reply, cacheControl).type(DRAWING_TYPES[drawing.format]).send(drawing.body);
}
