import Box from '@mui/material/Box';
import { Link as RouterLink } from 'react-router';
import { SITE_NAME } from '../lib/page-meta.js';

/** The logo mark: stacked bars rising into a spark, drawn for this product. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#1d4ed8" />
      <rect x="7" y="17" width="4" height="8" rx="1.5" fill="#bfdbfe" />
      <rect x="14" y="12" width="4" height="13" rx="1.5" fill="#dbeafe" />
      <rect x="21" y="8" width="4" height="17" rx="1.5" fill="#ffffff" />
      <circle cx="23" cy="5.5" r="1.8" fill="#fbbf24" />
    </svg>
  );
}

export function Logo() {
  return (
    <Box
      component={RouterLink}
      to="/"
      aria-label={`${SITE_NAME} home`}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1,
        color: 'text.primary',
        textDecoration: 'none',
        fontWeight: 700,
        fontSize: '1.15rem',
        mr: 2,
      }}
    >
      <LogoMark />
      <span>{SITE_NAME}</span>
    </Box>
  );
}
