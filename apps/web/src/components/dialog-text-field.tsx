import { lazy } from 'react';

export const loadTextField = () => import('@mui/material/TextField');

/**
 * MUI's TextField for a dialog's form fields: it loads with the dialog (FormDialog fetches it with
 * its own code), not with the screen that declares the fields. TextField imports Select, which
 * brings Menu, Popover and Modal (decision 030).
 */
export const DialogTextField = lazy(loadTextField);
