import LinkIcon from '@mui/icons-material/Link';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { showToast } from '../../../lib/toast-store.js';
import { useInBrowser } from '../../../lib/use-signed-in.js';

/** A report's heading: its title with the page's actions, its description, and what it reads. */
export function ReportHeader({
  title,
  description,
  source,
  version,
  actions,
}: {
  title: string;
  description: string | null;
  source: string;
  /** The version shown, or null for a built-in report. */
  version: number | null;
  /** Buttons beside the title that only some people get (Edit), before Copy link. */
  actions?: ReactNode;
}) {
  // Not pressable in a prerendered frame until the app runs: a press then would be lost.
  const running = useInBrowser();
  const copyLink = () => {
    void navigator.clipboard.writeText(window.location.href).then(
      () => showToast('Link copied: it opens this report with these parameters.', 'success'),
      () => showToast('The link could not be copied.', 'error'),
    );
  };
  return (
    <Box component="header" sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}>
        <Typography component="h1" variant="h4" sx={{ fontWeight: 700, mr: 'auto' }}>
          {title}
        </Typography>
        {actions}
        <Button size="small" startIcon={<LinkIcon />} onClick={copyLink} disabled={!running}>
          Copy link
        </Button>
      </Box>
      {description ? (
        <Typography color="text.secondary" sx={{ maxWidth: '75ch' }}>
          {description}
        </Typography>
      ) : undefined}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Chip size="small" label={`Source: ${source}`} />
        <Chip size="small" variant="outlined" label={version === null ? 'Built-in' : `Version ${version}`} />
      </Box>
    </Box>
  );
}
