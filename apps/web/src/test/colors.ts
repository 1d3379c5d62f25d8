/**
 * What colour an element shows, read from its computed style as a person would name it. The app's
 * theme writes its palette as CSS variables; they are resolved here the way the browser does.
 */

function resolve(element: Element, value: string): string {
  const match = /^var\(\s*(--[\w-]+)\s*(?:,\s*(.+))?\)$/.exec(value.trim());
  if (!match) return value.trim();
  const own = getComputedStyle(element).getPropertyValue(match[1]!).trim();
  return resolve(element, own !== '' ? own : (match[2] ?? ''));
}

function rgbOf(color: string): [number, number, number] {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) {
    const n = Number.parseInt(hex[1]!, 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  const rgb = /^rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)/.exec(color);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`Not a colour this helper reads: "${color}"`);
}

/** The hue in degrees (0–360) of a colour such as "#2e7d32" or "rgb(46, 125, 50)". */
function hueOf([red, green, blue]: [number, number, number]): number {
  const max = Math.max(red, green, blue);
  const min = Math.min(red, green, blue);
  if (max === min) return Number.NaN;
  const span = max - min;
  const hue =
    max === red ? ((green - blue) / span) % 6 : max === green ? (blue - red) / span + 2 : (red - green) / span + 4;
  return (hue * 60 + 360) % 360;
}

function isTransparent(color: string): boolean {
  return color === '' || color === 'transparent' || /^rgba\(.*,\s*0\)$/.test(color);
}

/** The background an element shows: its own, or that of the nearest ancestor that paints one. */
function shownBackground(element: Element): string {
  for (let node: Element | null = element; node; node = node.parentElement) {
    const color = resolve(node, getComputedStyle(node).backgroundColor);
    if (!isTransparent(color)) return color;
  }
  return 'transparent';
}

/**
 * "red", "amber" or "green" for the background an element shows (its own or an ancestor's) when it
 * is of one of those hues; "other" for anything else.
 */
export function backgroundColourName(element: Element): 'red' | 'amber' | 'green' | 'other' {
  const color = shownBackground(element);
  if (isTransparent(color)) return 'other';
  const hue = hueOf(rgbOf(color));
  if (hue >= 345 || hue <= 12) return 'red';
  if (hue >= 20 && hue <= 55) return 'amber';
  if (hue >= 90 && hue <= 160) return 'green';
  return 'other';
}

/** The element's computed property, CSS variables resolved. */
export function resolvedStyle(element: Element, property: string): string {
  return resolve(element, getComputedStyle(element).getPropertyValue(property));
}
