// Helvetica's advance widths (its Adobe font metrics, thousandths of an em) for the printable ASCII
// characters, space (32) to tilde (126); any other character counts as a digit's width.
const REGULAR = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];
const DEFAULT_WIDTH = 556;
/** Bold Helvetica is about this much wider on average. */
const BOLD_FACTOR = 1.08;

/** The width in pixels of a line of text at `size` pixels, as Helvetica sets it. */
export function helveticaWidth(text: string, size: number, bold: boolean): number {
  let units = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    units += code >= 32 && code <= 126 ? REGULAR[code - 32]! : DEFAULT_WIDTH;
  }
  return ((units * size) / 1000) * (bold ? BOLD_FACTOR : 1);
}
