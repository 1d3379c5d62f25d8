import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { lazy, Suspense, useEffect, useId, useState, type ComponentType } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import type { FormDialogProps } from './form-dialog.js';

/** FormDialog's MUI Dialog, in a chunk of its own: it loads when the dialog first opens. */
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

const loadBody = () => import('./form-dialog-body.js');
const FormDialogBody = lazy(() => loadBody().then((m) => ({ default: m.FormDialogBody })));

/** Fetches the form's chunk before the dialog opens (see `preloadFormDialog`). */
export function preloadFormDialogBody(): void {
  void loadBody();
}
