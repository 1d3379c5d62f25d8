import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHART_LOOKS, fullChartSpec } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors.js';
import { checkInlineSafe, createChartDrawer } from './chart-drawing.js';

/** Issue 59: the server's drawing of a chart's Vega-Lite spec, and what it refuses to draw. */
const drawer = createChartDrawer();
const light = { background: CHART_LOOKS.light.background, ttlSeconds: 60 };
const rows = [
  { payer: 'Aetna', rate: 120 },
  { payer: 'Cigna', rate: 95 },
  { payer: '<script>alert(1)</script> & "Co"', rate: 80 },
];
const bar = {
  mark: 'bar',
  encoding: { x: { field: 'payer', type: 'nominal' }, y: { field: 'rate', type: 'quantitative' } },
};

function spec(block: Record<string, unknown>, values: Record<string, unknown>[] = rows, title = 'Rates') {
  return fullChartSpec(block, values, title, CHART_LOOKS.light, 480);
}

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).errorCode).toBe('chart_refused');
  return error as AppError;
}

/** A server that counts the requests it gets: a drawing must never reach it. */
let bait: Server;
let baitUrl: string;
let baitHits = 0;
beforeAll(async () => {
  bait = createServer((request, response) => {
    baitHits += 1;
    response.end('payer,rate\nX,1\n');
  });
  await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
  baitUrl = `http://127.0.0.1:${(bait.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => bait.close(resolve)));

describe('drawing a chart in the server', () => {
  it('draws the SVG the web draws, its text escaped and nothing in it that runs or loads', async () => {
    const drawing = await drawer.draw(spec(bar, rows, 'Rates <b>by</b> payer'), 'svg', light);
    expect(drawing.format).toBe('svg');
    const svg = drawing.body as string;
    expect(svg).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('Aetna');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp;');
    expect(svg).not.toMatch(/<script|<b>|href=|\son[a-z]+=/i);
    expect(svg).toContain(CHART_LOOKS.light.text);
    expect(() => checkInlineSafe(svg)).not.toThrow();
  });

  it('draws a PNG of the same picture, and keeps one drawing per spec, format and paper', async () => {
    const first = await drawer.draw(spec(bar), 'png', light);
    const png = first.body as Buffer;
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // Twice the pixels of the 480 asked for (bytes 16-19: the width).
    expect(png.readUInt32BE(16)).toBe(960);
    const again = await drawer.draw(spec(bar), 'png', light);
    expect(again).toBe(first);
    const otherRows = await drawer.draw(spec(bar, [{ payer: 'Aetna', rate: 1 }]), 'png', light);
    expect(otherRows).not.toBe(first);
  });

  it('never fetches data a spec names by URL: the drawing is refused and nothing is asked', async () => {
    const layered = { layer: [bar, { mark: 'point', data: { url: `${baitUrl}/rates.csv` } }] };
    const error = await refusal(drawer.draw(spec(layered), 'svg', light));
    expect(error.message).toMatch(/may not load/);
    const lookedUp = {
      ...bar,
      transform: [{ lookup: 'payer', from: { data: { url: `${baitUrl}/payers.csv` }, key: 'payer', fields: ['x'] } }],
    };
    await refusal(drawer.draw(spec(lookedUp), 'svg', light));
    expect(baitHits).toBe(0);
  });

  it('draws no image or link from a URL in the rows', async () => {
    const images = {
      mark: 'image',
      encoding: { x: { field: 'payer', type: 'nominal' }, url: { field: 'logo', type: 'nominal' } },
    };
    await refusal(drawer.draw(spec(images, [{ payer: 'A', logo: `${baitUrl}/logo.png` }]), 'svg', light));
    const links = { ...bar, encoding: { ...bar.encoding, href: { field: 'site', type: 'nominal' } } };
    await refusal(drawer.draw(spec(links, [{ payer: 'A', rate: 1, site: 'https://example.com/' }]), 'svg', light));
    const script = { ...bar, encoding: { ...bar.encoding, href: { value: 'javascript:alert(1)' } } };
    await refusal(drawer.draw(spec(script), 'svg', light));
    expect(baitHits).toBe(0);
  });

  it('refuses a spec that asks for a million marks, quickly, rather than drawing them', async () => {
    const million = {
      mark: 'point',
      transform: [{ calculate: 'sequence(0, 1000000)', as: 'n' }, { flatten: ['n'] }],
      encoding: { x: { field: 'n', type: 'quantitative' }, y: { field: 'rate', type: 'quantitative' } },
    };
    const started = performance.now();
    const error = await refusal(drawer.draw(spec(million, [{ rate: 1 }]), 'svg', light));
    expect(error.message).toMatch(/more than 25000 marks/);
    // Not a speed target (bench/ has those): a refusal that drew the marks first would take far longer.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('answers a spec Vega-Lite cannot compile with a 422 naming the problem', async () => {
    const error = await refusal(drawer.draw(spec({ mark: 'no-such-mark' }), 'svg', light));
    expect(error.statusCode).toBe(422);
    expect(error.message).toMatch(/could not be drawn/);
  });

  it('finds what is unsafe to inline in SVG text', () => {
    for (const svg of [
      '<svg><script>alert(1)</script></svg>',
      '<svg><g onclick="x()"></g></svg>',
      '<svg><a xlink:href="https://example.com"><text>x</text></a></svg>',
      '<svg><rect fill="url(https://example.com/x)"/></svg>',
      '<svg><foreignObject><div/></foreignObject></svg>',
    ]) {
      expect(() => checkInlineSafe(svg), svg).toThrow(AppError);
    }
    expect(() =>
      checkInlineSafe('<svg aria-label="onclick=1 url(x)"><rect clip-path="url(#clip1)"/><text>href=x</text></svg>'),
    ).not.toThrow();
  });
});
