import { describe, expect, it } from 'vitest';
import { parseDefinition } from './parsed-definitions.js';

const text = (title: string) => `title: ${title}
source: demo
blocks:
  - id: rates
    kpi: { sql: "SELECT count(*) AS n FROM rates", value: n }
`;

describe('parseDefinition', () => {
  it('gives the definition of a text that parses, the same frozen object every time', () => {
    const first = parseDefinition(text('Cached once'));
    const again = parseDefinition(text('Cached once'));
    expect(first.ok && first.definition.title).toBe('Cached once');
    expect(again).toBe(first);
    if (!first.ok) throw new Error('the text should parse');
    expect(Object.isFrozen(first.definition)).toBe(true);
    expect(Object.isFrozen(first.definition.blocks[0])).toBe(true);
    expect(() => {
      (first.definition as { title: string }).title = 'Changed';
    }).toThrow(TypeError);
    expect(parseDefinition(text('Cached once'))).toMatchObject({ ok: true, definition: { title: 'Cached once' } });
  });

  it('parses another text on its own', () => {
    const one = parseDefinition(text('One'));
    const other = parseDefinition(text('Other'));
    expect(other).not.toBe(one);
    expect(other).toMatchObject({ ok: true, definition: { title: 'Other' } });
  });

  it('answers the problems of a text that does not parse, each time it is asked', () => {
    const broken = 'title: [unclosed';
    const first = parseDefinition(broken);
    expect(first.ok).toBe(false);
    expect(parseDefinition(broken)).not.toBe(first);
    expect(parseDefinition(broken)).toEqual(first);
  });
});
