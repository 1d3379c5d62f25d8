import Box from '@mui/material/Box';
import { BlockFrame } from './block-frame.js';

/**
 * A `text` block: its Markdown as the server rendered it (`reportTextHtml` in the contract, which
 * never passes HTML of the definition through), so the viewer carries no Markdown parser.
 */
export function TextBlock({ title, html }: { title: string | null; html: string }) {
  return (
    <BlockFrame title={title} state={{ status: 'ready' }} minHeight={0}>
      <Box
        sx={{ '& > :first-of-type': { mt: 0 }, '& > :last-child': { mb: 0 }, maxWidth: '75ch' }}
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </BlockFrame>
  );
}
