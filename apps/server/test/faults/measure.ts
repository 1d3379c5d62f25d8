/** What a fault case measures of the server under load, and how it reports it. */

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request made under faults: when it started and ended, and what it answered. */
export interface TimedAnswer {
  startedAt: number;
  endedAt: number;
  /** 0: no answer (a hang past the timeout, or a dropped socket). */
  status: number;
  /** The body's `detail`, or the error where there was no answer. */
  detail: unknown;
  retryAfter: string | null;
}

/** Makes the request and records its answer; a hang or a dropped socket is recorded as status 0, never thrown. */
export async function timedRequest(url: string, init: RequestInit): Promise<TimedAnswer> {
  const startedAt = Date.now();
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    let detail: unknown;
    try {
      detail = (JSON.parse(text) as { detail?: unknown }).detail;
    } catch {
      detail = undefined;
    }
    return {
      startedAt,
      endedAt: Date.now(),
      status: response.status,
      detail,
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (error) {
    return { startedAt, endedAt: Date.now(), status: 0, detail: String(error), retryAfter: null };
  }
}

/** How many answers had each status. */
export function countStatuses(answers: readonly { status: number }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/** Prints one figure line the way every fault case reports them. */
export function report(name: string, figures: Record<string, unknown>): void {
  process.stdout.write(`[faults] ${name}: ${JSON.stringify(figures)}\n`);
}
