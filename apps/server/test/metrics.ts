import type { FastifyInstance } from 'fastify';
import parsePrometheusTextFormat, { type PrometheusMetricFamily } from 'parse-prometheus-text-format';
import { expect } from 'vitest';

/** The METRICS_TOKEN of the test apps that serve /metrics. */
export const METRICS_TOKEN = 'test-metrics-token-0123456789abcdef';

/** One scrape, parsed by a Prometheus text-format parser, with look-ups by name and exact labels. */
export interface Scrape {
  families: PrometheusMetricFamily[];
  family(name: string): PrometheusMetricFamily | undefined;
  /** The value of the sample with exactly these labels; undefined when there is none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** A histogram's observation count for exactly these labels (0 when it has none). */
  histogramCount(name: string, labels: Record<string, string>): number;
}

function sameLabels(actual: Record<string, string> | undefined, expected: Record<string, string>): boolean {
  const given = actual ?? {};
  const keys = Object.keys(given);
  return keys.length === Object.keys(expected).length && keys.every((key) => given[key] === expected[key]);
}

function sampleIn(families: PrometheusMetricFamily[], name: string, labels: Record<string, string>) {
  return families.find((entry) => entry.name === name)?.metrics.find((entry) => sameLabels(entry.labels, labels));
}

export function parseScrape(text: string): Scrape {
  const families = parsePrometheusTextFormat(text);
  return {
    families,
    family: (name) => families.find((entry) => entry.name === name),
    value(name, labels = {}) {
      const found = sampleIn(families, name, labels);
      return found?.value === undefined ? undefined : Number(found.value);
    },
    histogramCount(name, labels) {
      // The parser (1.1.1) folds every series of a histogram into one and drops their labels, so
      // the `<name>_count` lines are parsed on their own, as an untyped family that keeps them.
      const countLines = text.split('\n').filter((line) => /^\S+/.exec(line)?.[0].split('{')[0] === `${name}_count`);
      const found = sampleIn(parsePrometheusTextFormat(`${countLines.join('\n')}\n`), `${name}_count`, labels);
      return found?.value === undefined ? 0 : Number(found.value);
    },
  };
}

/** GET /metrics with the token; fails the test unless it answers 200 in the Prometheus text format. */
export async function scrape(app: FastifyInstance, token = METRICS_TOKEN): Promise<Scrape> {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
  expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseScrape(response.body);
}
