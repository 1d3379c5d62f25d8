import Typography from '@mui/material/Typography';

/** A cell's own small query before its answer: "Loading...", or "Could not load" once it failed. */
export function RowQueryStatus({ failed }: { failed: boolean }) {
  return failed ? (
    <Typography variant="body2" color="error">
      Could not load
    </Typography>
  ) : (
    <Typography variant="body2" color="text.secondary">
      Loading...
    </Typography>
  );
}
