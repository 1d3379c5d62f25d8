import ContentCopy from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ReportPublic } from '@dataplatform/contract';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { accessQueryOptions } from '../api/editor.js';
import { defaultText, type ParamValues } from '../report-view.js';
import { copyText } from './copy-text.js';

/** Text to copy, shown as it is: monospace, wrapping anywhere, selectable. */
function CodeText({ label, text }: { label: string; text: string }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
      <Box
        component="pre"
        tabIndex={0}
        aria-label={label}
        sx={{
          m: 0,
          p: 1.5,
          width: '100%',
          boxSizing: 'border-box',
          bgcolor: 'action.hover',
          borderRadius: 1,
          fontSize: '0.8125rem',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
        }}
      >
        {text}
      </Box>
      <Button size="small" startIcon={<ContentCopy />} onClick={() => copyText(text, label)}>
        Copy {label.toLowerCase()}
      </Button>
    </Box>
  );
}

/**
 * How to put the report in another site: an iframe whose token the tenant's own server signs
 * (HS256, with the tenant's embed secret), naming the report, the parameters locked and an expiry.
 */
export function EmbedSnippet({ report, values }: { report: ReportPublic; values: ParamValues }) {
  const access = useQuery(accessQueryOptions());
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const snippet = `<iframe src="${origin}/embed/${report.id}?token=SIGNED_TOKEN"\n  title="${report.title.replace(/"/g, '&quot;')}" width="100%" height="800" style="border:0"></iframe>`;
  const locked = Object.fromEntries(
    report.params.map((param) => [param.name, values[param.name] ?? defaultText(param)]),
  );
  const claims = JSON.stringify(
    { report: report.id, params: locked, exp: 'now + at most 24 hours, in seconds' },
    null,
    2,
  );
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        Your own server signs a short-lived token for each viewer and puts it in the frame’s address. The parameters the
        token names are locked: a viewer never sees rows for other values.
      </Typography>
      <CodeText label="Snippet" text={snippet} />
      <Typography variant="body2" color="text.secondary">
        The token is a JWT signed with HS256 and the tenant’s embed secret. Its claims (lock the parameters your viewer
        may see, leave out the rest):
      </Typography>
      <CodeText label="Claims" text={claims} />
      <Typography variant="body2" color="text.secondary">
        Only the sites the tenant allows may frame the report.{' '}
        {access.data?.embed_manage ? (
          <Link component={RouterLink} to="/studio/embed">
            Set the allowed sites and the embed secret
          </Link>
        ) : (
          'An administrator of the tenant sets the allowed sites and the embed secret.'
        )}
      </Typography>
    </Box>
  );
}
