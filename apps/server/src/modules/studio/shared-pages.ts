import type { FastifyReply } from 'fastify';
import type { ReportEmbeddingService } from './report-embedding.service.js';

const SHARED_PAGE = /^\/s\/[^/]+\/?$/;
const EMBEDDED_PAGE = /^\/embed\/([^/]+)\/?$/;

/** A page CSP with its `frame-ancestors` set to `origins` ('none' when there are none). */
export function withFrameAncestors(csp: string, origins: readonly string[]): string {
  const ancestors = `frame-ancestors ${origins.length > 0 ? origins.join(' ') : "'none'"}`;
  const directives = csp
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !directive.startsWith('frame-ancestors'));
  return [...directives, ancestors].join('; ');
}

/**
 * The headers of the pages a share link or an embed token opens (issue 58): `/s/{token}` and
 * `/embed/{report_id}` are kept out of search engines and never pass their address (which holds the
 * token) on as a referrer; an embedded report may be framed by its tenant's allowed origins only.
 * Set on the app's HTML as it is served (plugins/static.ts); the API checks every call anyway.
 */
export function sharedPageHeaders(embedding: Pick<ReportEmbeddingService, 'frameAncestors'>) {
  return async (pathname: string, reply: FastifyReply): Promise<void> => {
    const embedded = EMBEDDED_PAGE.exec(pathname);
    if (!embedded && !SHARED_PAGE.test(pathname)) return;
    reply.header('x-robots-tag', 'noindex, nofollow').header('referrer-policy', 'no-referrer');
    if (!embedded) return;
    let reportId: string;
    try {
      reportId = decodeURIComponent(embedded[1]!);
    } catch {
      reportId = '';
    }
    const origins = await embedding.frameAncestors(reportId);
    reply.header(
      'content-security-policy',
      withFrameAncestors(String(reply.getHeader('content-security-policy') ?? ''), origins),
    );
    // Superseded by frame-ancestors where browsers know it; kept it would forbid what the list allows.
    reply.removeHeader('x-frame-options');
  };
}
