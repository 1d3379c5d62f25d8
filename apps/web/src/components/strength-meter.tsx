import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { messages } from '@dataplatform/contract';
import { useIsCommonPassword } from './common-passwords.js';
import { DEFAULT_STRENGTH_SEGMENTS, passwordStrength, type StrengthLabel } from './password-strength.js';

const labelColors: Record<StrengthLabel, string> = {
  Low: 'error.main',
  Medium: 'warning.main',
  High: 'success.main',
};

/** The password strength meter: filled segments and a Low / Medium / High label. */
export function StrengthMeter({
  password,
  segments = DEFAULT_STRENGTH_SEGMENTS,
}: {
  password: string;
  segments?: number;
}) {
  // A password on the common list is weak however it is composed: one segment, Low, and why.
  const common = useIsCommonPassword(password);
  const strength = common ? passwordStrength('', segments, 1) : passwordStrength(password, segments);
  return (
    <Box
      role="meter"
      aria-label="Password strength"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={strength.percent}
      aria-valuetext={strength.label}
      sx={{ mt: 0.5, mb: 1 }}
    >
      <Box sx={{ display: 'flex', gap: 0.5 }}>
        {Array.from({ length: segments }, (_, index) => (
          <Box
            key={index}
            data-testid="strength-segment"
            data-filled={index < strength.filled}
            sx={{
              flex: 1,
              height: 6,
              borderRadius: 1,
              bgcolor: index < strength.filled ? labelColors[strength.label] : 'action.disabledBackground',
            }}
          />
        ))}
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        Password strength: <span data-testid="strength-label">{strength.label}</span>
      </Typography>
      {common && (
        <Typography variant="caption" color="error" component="p" role="status">
          {messages.passwordTooCommon}
        </Typography>
      )}
    </Box>
  );
}
