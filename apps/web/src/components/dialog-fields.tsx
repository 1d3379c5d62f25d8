import { lazy } from 'react';
import type { CheckboxField } from './checkbox-field.js';

// The fields come in FormDialog's own chunk, with its Dialog and form: one fetch when a dialog
// opens (or as the pointer nears its button: `preloadFormDialog`).
const loadFrame = () => import('./form-dialog-frame.js');

/**
 * MUI's TextField for a dialog's form fields: it loads with the dialog, not with the screen that
 * declares the fields. TextField imports Select, which brings Menu, Popover and Modal (decision 030).
 */
export const DialogTextField = lazy(() => loadFrame().then((m) => ({ default: m.TextField })));

/** PasswordField for a dialog's form, loading with the dialog like DialogTextField. */
export const DialogPasswordField = lazy(() => loadFrame().then((m) => ({ default: m.PasswordField })));

/** CheckboxField for a dialog's form (Checkbox, FormControlLabel), loading with the dialog. */
export const DialogCheckboxField = lazy(() =>
  loadFrame().then((m) => ({ default: m.CheckboxField })),
) as unknown as typeof CheckboxField;
