// What the viewer tells of a chart Vega could not draw. No Vega here: this module is in the viewer's
// chunk. The spec itself is built by the contract's fullChartSpec, the same in the server's drawing.

/**
 * What to tell a reader about a chart that could not be drawn: the message of an error Vega or
 * Vega-Lite raised about the spec (a plain `Error`), or '' for a fault inside the library (a
 * `TypeError` about undefined properties says nothing to a report's reader).
 */
export function specProblem(error: unknown): string {
  return error instanceof Error && error.constructor === Error ? error.message : '';
}
