import { CompletionContext } from '@codemirror/autocomplete';
import { yaml } from '@codemirror/lang-yaml';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { completeDefinition } from './schema-hints.js';

/** The completions at `|` in `text`. */
function labelsAt(text: string, names: { label: string }[] = []): string[] {
  const pos = text.indexOf('|');
  // With the YAML language, as in the editor: the hints read its syntax tree.
  const state = EditorState.create({ doc: text.replace('|', ''), extensions: [yaml()] });
  const result = completeDefinition(new CompletionContext(state, pos, true), names);
  return result?.options.map((option) => option.label) ?? [];
}

describe('completeDefinition (the schema’s hints)', () => {
  it('offers the top-level keys at the margin', () => {
    expect(labelsAt('title: A\n|')).toEqual(['title', 'description', 'source', 'cache', 'params', 'blocks']);
  });

  it('offers a block’s keys and kinds in a list item under blocks', () => {
    const block = ['id', 'title', 'kpi', 'chart', 'table', 'text'];
    expect(labelsAt('blocks:\n  - |')).toEqual(block);
    expect(labelsAt('blocks:\n  - id: a\n    |')).toEqual(block);
  });

  it('offers the keys of a KPI, a parameter and a chart encoding by nesting', () => {
    expect(labelsAt('blocks:\n  - id: a\n    kpi:\n      |')).toEqual(['sql', 'value', 'format', 'label']);
    expect(labelsAt('params:\n  code:\n    |')).toEqual(['label', 'type', 'default', 'options']);
    expect(
      labelsAt('blocks:\n  - id: a\n    chart:\n      spec:\n        encoding:\n          x:\n            |'),
    ).toContain('field');
  });

  it('offers the values of source, type and format', () => {
    expect(labelsAt('source: |')).toEqual(['demo', 'tenant', 'extract']);
    expect(labelsAt('params:\n  code: { type: s|')).toContain('select');
    expect(labelsAt('    kpi: { sql: "x", value: v, format: |')).toEqual(['number', 'integer', 'currency', 'percent']);
  });

  it('offers the source’s tables and columns inside a value', () => {
    expect(labelsAt('    kpi: { sql: "SELECT * FROM ra|', [{ label: 'rates' }])).toEqual(['rates']);
  });
});
