export type StrengthLabel = 'Low' | 'Medium' | 'High';

export const DEFAULT_STRENGTH_SEGMENTS = 4;

export interface PasswordStrength {
  filled: number;
  segments: number;
  percent: number;
  label: StrengthLabel;
}

/** Low under 33 %, Medium under 66 %, otherwise High (WEB-UI-4). */
export function strengthLabel(percent: number): StrengthLabel {
  if (percent < 33) return 'Low';
  if (percent < 66) return 'Medium';
  return 'High';
}

/**
 * One point each for: at least 8 characters, mixed case, a digit, a symbol; a fifth for 12 or more
 * characters. Points fill segments in proportion (four points fill four segments), at least
 * `minimumFilled` of them.
 */
export function passwordStrength(
  password: string,
  segments = DEFAULT_STRENGTH_SEGMENTS,
  minimumFilled = 0,
): PasswordStrength {
  let points = 0;
  if (password.length >= 8) points += 1;
  if (/[a-z]/.test(password) && /[A-Z]/.test(password)) points += 1;
  if (/\d/.test(password)) points += 1;
  if (/[^A-Za-z0-9]/.test(password)) points += 1;
  if (password.length >= 12) points += 1;
  const filled = Math.min(segments, Math.max(minimumFilled, Math.round((Math.min(points, 4) / 4) * segments)));
  const percent = segments === 0 ? 0 : (filled / segments) * 100;
  return { filled, segments, percent, label: strengthLabel(percent) };
}
