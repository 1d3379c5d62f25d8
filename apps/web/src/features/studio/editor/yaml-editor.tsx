import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  type Completion,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, lintKeymap, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, type Text } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import Box from '@mui/material/Box';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type { EditorProblem } from './definition-problems.js';
import { completeDefinition } from './schema-hints.js';

export interface YamlEditorHandle {
  /** Inserts `text` at the cursor (replacing the selection) and gives the editor the focus. */
  insert: (text: string) => void;
  /** Moves the cursor to a 1-based line and column and gives the editor the focus. */
  goTo: (line: number, column: number) => void;
}

// Colours by CSS variable, set for each colour scheme below: the editor follows the app's theme
// without being rebuilt, and each token keeps a 4.5:1 contrast on the paper of its scheme.
const highlight = HighlightStyle.define([
  { tag: [tags.definition(tags.propertyName), tags.propertyName], color: 'var(--yaml-key)' },
  { tag: [tags.string, tags.special(tags.string), tags.content], color: 'var(--yaml-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom, tags.keyword], color: 'var(--yaml-atom)' },
  { tag: [tags.comment, tags.lineComment], color: 'var(--yaml-comment)', fontStyle: 'italic' },
  { tag: [tags.labelName, tags.typeName, tags.meta], color: 'var(--yaml-meta)' },
]);

const chrome = EditorView.theme({
  '&': { color: 'var(--mui-palette-text-primary)', backgroundColor: 'transparent', fontSize: '0.875rem' },
  '&.cm-focused': { outline: '2px solid var(--mui-palette-primary-main)', outlineOffset: '-2px' },
  '.cm-content': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    caretColor: 'var(--mui-palette-text-primary)',
  },
  '.cm-cursor': { borderLeftColor: 'var(--mui-palette-text-primary)' },
  '.cm-gutters': {
    backgroundColor: 'var(--mui-palette-action-hover)',
    color: 'var(--mui-palette-text-secondary)',
    border: 'none',
  },
  '.cm-activeLine': { backgroundColor: 'var(--mui-palette-action-hover)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--mui-palette-action-selected)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--yaml-selection) !important',
  },
  '.cm-tooltip': {
    backgroundColor: 'var(--mui-palette-background-paper)',
    color: 'var(--mui-palette-text-primary)',
    border: '1px solid var(--mui-palette-divider)',
  },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    backgroundColor: 'var(--mui-palette-primary-main)',
    color: 'var(--mui-palette-primary-contrastText)',
  },
  '.cm-completionDetail': { color: 'inherit', opacity: 1, fontStyle: 'normal', marginLeft: '0.75em' },
  '.cm-diagnostic': { color: 'var(--mui-palette-text-primary)' },
  '.cm-scroller': { overflow: 'auto' },
});

/** The document position of a 1-based line and column, kept inside the text. */
function positionOf(doc: Text, line: number, column: number): number {
  const at = doc.line(Math.min(Math.max(line, 1), doc.lines));
  return Math.min(at.from + Math.max(column - 1, 0), at.to);
}

function diagnosticsOf(doc: Text, problems: readonly EditorProblem[]): Diagnostic[] {
  return problems.map((problem) => {
    const from = positionOf(doc, problem.line, problem.column);
    const lineEnd = doc.lineAt(from).to;
    // Underline the word the problem starts at (or the rest of an empty position's line).
    const word = /^[^\s,:{}[\]]+/.exec(doc.sliceString(from, lineEnd))?.[0].length ?? 0;
    return {
      from,
      to: word > 0 ? from + word : lineEnd,
      severity: 'error',
      message: problem.message,
      source: problem.origin === 'server' ? 'Server' : undefined,
    };
  });
}

/**
 * The report's YAML in CodeMirror 6 (loaded with the editor route only): YAML highlighting, the
 * schema's keys and values as completions, each problem underlined at its line and column with a
 * gutter mark. Tab is left to the page (keyboard users move on with it), Ctrl-Space completes.
 */
export default function YamlEditor({
  value,
  onChange,
  problems,
  tableNames,
  label,
  describedBy,
  handle,
}: {
  value: string;
  onChange: (text: string) => void;
  problems: readonly EditorProblem[];
  /** Names of the source's tables and columns, offered as completions too. */
  tableNames: readonly Completion[];
  label: string;
  describedBy?: string;
  handle?: Ref<YamlEditorHandle>;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, tableNames });
  useEffect(() => {
    latest.current = { onChange, tableNames };
  });

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    const created = new EditorView({
      parent,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          highlightActiveLine(),
          yaml(),
          syntaxHighlighting(highlight),
          autocompletion({
            override: [
              (context: CompletionContext): CompletionResult | null =>
                completeDefinition(context, latest.current.tableNames),
            ],
          }),
          lintGutter(),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap]),
          EditorState.tabSize.of(2),
          EditorView.lineWrapping,
          chrome,
          EditorView.contentAttributes.of({
            'aria-label': label,
            // Focusable by name as well as by nature: checkers then see the scrolling box's content can be reached.
            tabindex: '0',
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // The view is made once; the text and the problems are handed to it by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A text from outside (a reload, a restore, a version taken over): replace the document.
  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) {
      current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    const current = view.current;
    if (current) current.dispatch(setDiagnostics(current.state, diagnosticsOf(current.state.doc, problems)));
  }, [problems, value]);

  useImperativeHandle(handle, () => ({
    insert: (text: string) => {
      const current = view.current;
      if (!current) return;
      current.dispatch(current.state.replaceSelection(text), { scrollIntoView: true });
      current.focus();
    },
    goTo: (line: number, column: number) => {
      const current = view.current;
      if (!current) return;
      const anchor = positionOf(current.state.doc, line, column);
      current.dispatch({ selection: { anchor }, scrollIntoView: true });
      current.focus();
    },
  }));

  return (
    <Box
      ref={host}
      sx={(theme) => ({
        '--yaml-key': '#0550ae',
        '--yaml-string': '#116329',
        '--yaml-atom': '#953800',
        '--yaml-comment': '#57606a',
        '--yaml-meta': '#8250df',
        '--yaml-selection': 'rgba(84, 174, 255, 0.35)',
        ...theme.applyStyles('dark', {
          '--yaml-key': '#79c0ff',
          '--yaml-string': '#7ee787',
          '--yaml-atom': '#ffa657',
          '--yaml-comment': '#a5afba',
          '--yaml-meta': '#d2a8ff',
          '--yaml-selection': 'rgba(56, 139, 253, 0.4)',
        }),
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'hidden',
        '& .cm-editor': { height: { xs: 360, md: 560 } },
      })}
    />
  );
}
