import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { lazy, Suspense, useEffect, useId, useState, type ComponentType, type ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A form's schema, or a loader of it: a screen that passes a loader keeps zod out of its own chunk,
 * and the schema arrives with the form when the dialog opens (decision 030).
 */
export type SchemaSource<TParsed, TValues> = z.ZodType<TParsed, TValues> | (() => Promise<z.ZodType<TParsed, TValues>>);

export interface FormDialogProps<TValues extends FieldValues, TParsed> {
  open: boolean;
  title: string;
  /** Validates on blur and on submit; its output is what `onSubmit` receives. */
  schema: SchemaSource<TParsed, TValues>;
  defaultValues: TValues;
  submitLabel: string;
  submittingText?: string;
  cancelLabel?: string;
  onSubmit: (values: TParsed) => Promise<unknown>;
  onClose: () => void;
  /** Watched as the person types: Submit is disabled while it answers false. */
  canSubmit?: (values: TValues) => boolean;
  /** Shown under the fields while `canSubmit` answers false. */
  disabledReason?: string;
  children: (form: UseFormReturn<TValues, unknown, TParsed>) => ReactNode;
  maxWidth?: 'xs' | 'sm' | 'md';
}

/**
 * A dialog holding one form (react-hook-form with the zod resolver): validation on blur, a
 * loading Button while it submits, the server's 422 messages on their fields, everything else on the
 * form's error line. The form lives only while the dialog is open, so each opening starts from
 * `defaultValues` with no leftover messages; it closes itself on success. The form's code (and the
 * schema, when given as a loader) loads when the dialog first opens.
 */
export function FormDialog<TValues extends FieldValues, TParsed = TValues>(props: FormDialogProps<TValues, TParsed>) {
  const titleId = useId();
  const { open, schema } = props;
  const [fetched, setFetched] = useState<z.ZodType<TParsed, TValues>>();
  const loaded = typeof schema === 'function' ? fetched : schema;
  useEffect(() => {
    if (!open || typeof schema !== 'function' || fetched) return;
    let current = true;
    void schema().then((resolved) => current && setFetched(resolved));
    return () => {
      current = false;
    };
  }, [open, schema, fetched]);
  const Body = FormDialogBody as ComponentType<
    Omit<FormDialogProps<TValues, TParsed>, 'schema'> & { titleId: string; schema: z.ZodType<TParsed, TValues> }
  >;
  const loading = (
    <>
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent>
        <CircularProgress size={24} aria-label="Loading" />
      </DialogContent>
    </>
  );
  return (
    <Dialog open={open} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth={props.maxWidth ?? 'sm'}>
      {loaded ? (
        <Suspense fallback={loading}>
          <Body {...props} schema={loaded} titleId={titleId} />
        </Suspense>
      ) : (
        loading
      )}
    </Dialog>
  );
}

const FormDialogBody = lazy(() => import('./form-dialog-body.js').then((m) => ({ default: m.FormDialogBody })));
