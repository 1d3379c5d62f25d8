import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { Suspense, useEffect, useId, useState, type ComponentType } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import type { FormDialogProps } from './form-dialog.js';
import { FormDialogBody } from './form-dialog-body.js';

/**
 * FormDialog's MUI Dialog and its form (react-hook-form, the zod resolver), in a chunk of their own:
 * they load when the dialog first opens.
 */
export function FormDialogFrame<TValues extends FieldValues, TParsed = TValues>(
  props: FormDialogProps<TValues, TParsed>,
) {
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

// The fields the forms lay out (through dialog-fields.tsx) come in this chunk too.
export { default as TextField } from '@mui/material/TextField';
export { PasswordField } from './password-field.js';
export { CheckboxField } from './checkbox-field.js';
