import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { diffLines } from 'diff';
import { useMemo } from 'react';

interface DiffLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/** The lines of `after` against `before`: each kept, removed or added line in order. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const change of diffLines(before, after)) {
    const kind = change.added ? 'added' : change.removed ? 'removed' : 'same';
    const texts = change.value.replace(/\n$/, '').split('\n');
    for (const text of texts) lines.push({ kind, text });
  }
  return lines;
}

const MARK = { added: '+', removed: '−', same: ' ' } as const;

/**
 * A line diff of two texts (STUDIO-EDIT-5): removed lines in a `del`, added ones in an `ins`, each
 * with a sign as well as a colour, so neither colour vision nor a screen reader is needed to tell.
 */
export function TextDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const lines = useMemo(() => lineDiff(before, after), [before, after]);
  const added = lines.filter((line) => line.kind === 'added').length;
  const removed = lines.filter((line) => line.kind === 'removed').length;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {added === 0 && removed === 0
          ? 'The two texts are the same.'
          : `${added} line${added === 1 ? '' : 's'} added, ${removed} removed.`}
      </Typography>
      <Box
        role="region"
        aria-label={label}
        tabIndex={0}
        sx={(theme) => ({
          m: 0,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          overflow: 'auto',
          maxHeight: '60vh',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: '0.8125rem',
          '&:focus-visible': { outline: `2px solid ${theme.vars?.palette.primary.main ?? 'currentColor'}` },
          '& ins, & del, & span.same': {
            display: 'block',
            textDecoration: 'none',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            px: 1,
          },
          '& ins': { backgroundColor: 'rgba(46, 160, 67, 0.18)' },
          '& del': { backgroundColor: 'rgba(248, 81, 73, 0.18)' },
        })}
      >
        {lines.map((line, index) => {
          const content = `${MARK[line.kind]} ${line.text}`;
          if (line.kind === 'added') return <ins key={index}>{content}</ins>;
          if (line.kind === 'removed') return <del key={index}>{content}</del>;
          return (
            <span key={index} className="same">
              {content}
            </span>
          );
        })}
      </Box>
    </Box>
  );
}
