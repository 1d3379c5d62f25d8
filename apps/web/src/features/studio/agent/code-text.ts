/** How text shown as it is looks (the SQL, the YAML, the model's answer as it arrives): kept lines, monospace, shaded. */
export const CODE_TEXT_SX = {
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: '0.8125rem',
  bgcolor: 'action.hover',
  borderRadius: 1,
} as const;
