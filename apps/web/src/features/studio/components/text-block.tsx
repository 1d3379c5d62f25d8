import Box from '@mui/material/Box';
import { lazy, Suspense } from 'react';
import { BlockFrame } from './block-frame.js';

// react-markdown and its parser are a sizeable chunk: only a report with a text block loads it.
const Markdown = lazy(() => import('react-markdown'));

/**
 * A `text` block: its Markdown as elements, never raw HTML (react-markdown renders elements and
 * does not inject markup).
 */
export function TextBlock({ title, text }: { title: string | null; text: string }) {
  return (
    <BlockFrame title={title} state={{ status: 'ready' }} minHeight={0}>
      <Box sx={{ '& > :first-of-type': { mt: 0 }, '& > :last-child': { mb: 0 }, maxWidth: '75ch' }}>
        <Suspense fallback={null}>
          <Markdown>{text}</Markdown>
        </Suspense>
      </Box>
    </BlockFrame>
  );
}
