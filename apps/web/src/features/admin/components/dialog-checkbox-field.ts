import { lazy } from 'react';
import type { CheckboxField } from './checkbox-field.js';

const loadCheckboxField = () => import('./checkbox-field.js');

/**
 * CheckboxField for a dialog's form: MUI's Checkbox and FormControlLabel load with the dialog, not
 * with the tab that declares the fields (decision 030).
 */
export const DialogCheckboxField = lazy(() =>
  loadCheckboxField().then((m) => ({ default: m.CheckboxField })),
) as unknown as typeof CheckboxField;

/** Fetches its code ahead of a dialog's opening. */
export function preloadDialogCheckboxField(): void {
  void loadCheckboxField();
}
