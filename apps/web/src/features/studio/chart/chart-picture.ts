import type { PictureReply, PictureRequest } from './chart-picture-protocol.js';

// The page's one chart worker, made with the first chart and kept: its script (Vega and Vega-Lite)
// loads and evaluates once, in the worker.
let worker: Worker | undefined;
let unavailable = false;
let lastId = 0;
const waiting = new Map<number, (reply: PictureReply) => void>();

function giveUp() {
  unavailable = true;
  worker?.terminate();
  worker = undefined;
  for (const [id, settle] of waiting) settle({ id, unsupported: true });
  waiting.clear();
}

/** Starts the worker ahead of the first chart, so its script downloads while the rows are on their way. */
export function startChartWorker(): Worker | undefined {
  if (worker || unavailable) return worker;
  if (typeof Worker === 'undefined') {
    unavailable = true;
    return undefined;
  }
  try {
    worker = new Worker(new URL('./chart-picture.worker.ts', import.meta.url), {
      type: 'module',
      name: 'chart-picture',
    });
  } catch {
    giveUp();
    return undefined;
  }
  worker.addEventListener('message', (event: MessageEvent<PictureReply>) => {
    const settle = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    settle?.(event.data);
  });
  // The script failed to load or evaluate: every chart is drawn live instead.
  worker.addEventListener('error', giveUp);
  return worker;
}

/**
 * The chart's SVG text, drawn in the worker; null where this browser cannot draw there (the caller
 * draws a live view instead). Rejects with Vega's message for a spec it cannot draw.
 */
export function drawChartPicture(spec: Record<string, unknown>): Promise<string | null> {
  const target = startChartWorker();
  if (!target) return Promise.resolve(null);
  const id = ++lastId;
  return new Promise((resolve, reject) => {
    waiting.set(id, (reply) => {
      if ('svg' in reply) resolve(reply.svg);
      else if ('error' in reply) reject(new Error(reply.error));
      else {
        unavailable = true;
        resolve(null);
      }
    });
    target.postMessage({ id, spec } satisfies PictureRequest);
  });
}
