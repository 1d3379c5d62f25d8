import Button, { type ButtonProps } from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Box from '@mui/material/Box';

/** Hidden from sight, still read by screen readers: the button keeps its name while spinning. */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

export interface LoadingButtonProps extends ButtonProps {
  loading?: boolean;
  /** Shown beside the spinner while loading; without it the spinner stands alone. */
  loadingText?: string;
}

/** A button that, while `loading`, is disabled and shows a spinner (plus `loadingText` if given). */
export function LoadingButton({ loading = false, loadingText, children, disabled, ...props }: LoadingButtonProps) {
  if (!loading) {
    return (
      <Button {...props} disabled={disabled}>
        {children}
      </Button>
    );
  }
  return (
    <Button {...props} disabled aria-busy="true">
      <CircularProgress size={20} color="inherit" aria-hidden="true" data-testid="loading-spinner" />
      {loadingText ? (
        <Box component="span" sx={{ ml: 1 }}>
          {loadingText}
        </Box>
      ) : (
        <Box component="span" sx={visuallyHidden}>
          {children}
        </Box>
      )}
    </Button>
  );
}
