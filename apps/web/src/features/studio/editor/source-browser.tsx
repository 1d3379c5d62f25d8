import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { ApiError, errorText } from '../../../lib/api-error.js';
import { sourceTablesQueryOptions } from '../api/editor.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';

/**
 * The tables and columns of the definition's source (STUDIO-EDIT-6): a click (or Enter) on a name
 * inserts it at the editor's cursor.
 */
export function SourceBrowser({ source, onInsert }: { source: string | undefined; onInsert: (name: string) => void }) {
  const tables = useQuery({ ...sourceTablesQueryOptions(source ?? ''), enabled: source !== undefined });
  if (source === undefined) {
    return (
      <Typography color="text.secondary" variant="body2">
        Name a source (<code>source: demo</code>, <code>tenant</code> or <code>extract</code>) to see its tables.
      </Typography>
    );
  }
  if (tables.isPending) {
    return <LoadingLine sx={{ color: 'text.secondary' }}>Loading the tables of {source}...</LoadingLine>;
  }
  if (tables.isError) {
    const missing = tables.error instanceof ApiError && tables.error.status === 404;
    return (
      <LoadFailure onRetry={missing ? undefined : () => void tables.refetch()} retrying={tables.isFetching}>
        {missing
          ? `The source “${source}” is not available in this tenant.`
          : `The tables could not be loaded: ${errorText(tables.error)}`}
      </LoadFailure>
    );
  }
  if (tables.data.data.length === 0) {
    return (
      <Typography color="text.secondary" variant="body2">
        The source “{source}” has no tables yet.
      </Typography>
    );
  }
  return (
    <Box component="nav" aria-label={`Tables of ${source}`} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        Choose a name to insert it at the cursor.
      </Typography>
      {tables.data.data.map((table) => (
        <Box key={table.name} component="section" aria-label={`Table ${table.name}`}>
          <Button
            size="small"
            variant="outlined"
            onClick={() => onInsert(table.name)}
            aria-label={`Insert table ${table.name}`}
            sx={{ fontFamily: 'monospace', textTransform: 'none', fontWeight: 600 }}
          >
            {table.name}
          </Button>
          <Box
            component="ul"
            sx={{ listStyle: 'none', m: 0, mt: 0.5, p: 0, display: 'flex', flexWrap: 'wrap', gap: 0.5 }}
          >
            {table.columns.map((column) => (
              <li key={column.name}>
                <Button
                  size="small"
                  onClick={() => onInsert(column.name)}
                  aria-label={`Insert column ${column.name} (${column.type}) of ${table.name}`}
                  sx={{ fontFamily: 'monospace', textTransform: 'none', minWidth: 0 }}
                >
                  {column.name}
                  <Box component="span" sx={{ ml: 0.75, color: 'text.secondary', fontSize: '0.75rem' }}>
                    {column.type.toLowerCase()}
                  </Box>
                </Button>
              </li>
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
