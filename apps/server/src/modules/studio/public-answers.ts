import { LRUCache } from 'lru-cache';
import { encodeAnswer, type EncodedAnswer } from '../../lib/compression.js';
import { createSingleFlight } from './engine/single-flight.js';

/** Answers kept at once, and their bytes (identity and encoded) at most. */
const ANSWERS_MAX = 1_000;
const ANSWERS_MAX_BYTES = 32 * 1024 * 1024;

/** What a build makes: the answer's body as sent, and whether it may be kept for the next callers. */
export interface AnswerBuild {
  body: string | Buffer;
  type: string;
  compressible: boolean;
  keep: boolean;
}

interface KeptAnswer extends EncodedAnswer {
  /** The grant it was made under: another (the link read anew, or revoked) never gets it. */
  grant: object;
}

/**
 * A share link's answers (the report with its first runs, a chart's drawing) made once, serialized
 * and compressed, for everyone opening the link at that moment (issue 58: a crowd of viewers). A
 * build is joined by identical calls in flight, and kept for as long as the grant it was made under
 * (report-sharing.service.ts keeps a grant a second): each call still checks its link (404, 410) and
 * counts against its rate limit before it gets here, and the bytes are only ever those its grant's
 * report and parameters gave. Callers key an answer by everything it depends on within the grant.
 */
export function createPublicAnswers(options: { ttlMs: number }) {
  const kept = new LRUCache<string, KeptAnswer>({
    max: ANSWERS_MAX,
    maxSize: ANSWERS_MAX_BYTES,
    sizeCalculation: (answer) => Math.max(1, answer.size),
    ttl: options.ttlMs,
  });
  const builds = createSingleFlight<KeptAnswer>();

  /**
   * The answer under `key` for `grant`: the one kept, else `build`'s (one build for every identical
   * call in flight; it stops when they have all gone, as a run does). `leaving` gives the caller's
   * signal of going away, asked for only when it waits on a build (a kept answer is sent at once).
   */
  async function answer(
    grant: object,
    key: string,
    leaving: () => AbortSignal,
    build: (signal: AbortSignal) => Promise<AnswerBuild>,
  ): Promise<EncodedAnswer> {
    const held = kept.get(key);
    if (held?.grant === grant) return held;
    const made = await builds.run(key, leaving(), async (buildSignal) => {
      const { body, type, compressible, keep } = await build(buildSignal);
      const built = { ...encodeAnswer(body, type, compressible), grant };
      if (keep) kept.set(key, built);
      return built;
    });
    // Joined a build begun under an earlier grant (the link read anew meanwhile): not ours to send.
    return made.grant === grant ? made : answer(grant, key, leaving, build);
  }

  return { answer };
}
