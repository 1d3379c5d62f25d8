import { lazy } from 'react';

const loadTextField = () => import('@mui/material/TextField');
const loadPasswordField = () => import('./password-field.js');

/**
 * MUI's TextField for a dialog's form fields: it loads with the dialog (FormDialog fetches it with
 * its own code), not with the screen that declares the fields. TextField imports Select, which
 * brings Menu, Popover and Modal (decision 030).
 */
export const DialogTextField = lazy(loadTextField);

/** PasswordField for a dialog's form, loading with the dialog like DialogTextField. */
export const DialogPasswordField = lazy(() => loadPasswordField().then((m) => ({ default: m.PasswordField })));

/** Fetches the dialog fields' code (FormDialog calls it as it loads). */
export function preloadDialogFields(): void {
  void loadTextField();
  void loadPasswordField();
}
