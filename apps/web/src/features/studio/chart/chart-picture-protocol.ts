// The messages between the viewer and the worker that draws chart pictures (chart-picture.worker.ts).

/** Draw this Vega-Lite spec (rows included, width in pixels). `id` pairs the reply with it. */
export interface PictureRequest {
  id: number;
  spec: Record<string, unknown>;
}

/** The chart as SVG text; or why Vega could not draw it; or that this browser's workers cannot measure text. */
export type PictureReply =
  { id: number; svg: string } | { id: number; error: string } | { id: number; unsupported: true };
