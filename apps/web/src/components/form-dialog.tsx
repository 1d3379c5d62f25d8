import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import { useId, useState, type ReactNode } from 'react';
import {
  useForm,
  useWatch,
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, errorText } from '../lib/api-error.js';
import { LoadingButton } from './loading-button.js';

export interface FormDialogProps<TValues extends FieldValues, TParsed> {
  open: boolean;
  title: string;
  /** Validates on blur and on submit; its output is what `onSubmit` receives. */
  schema: z.ZodType<TParsed, TValues>;
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

interface ValidationItem {
  loc: readonly unknown[];
  msg: string;
}

function validationItems(error: unknown): ValidationItem[] | undefined {
  if (!(error instanceof ApiError) || error.status !== 422) return undefined;
  const body = error.body;
  if (typeof body !== 'object' || body === null || !('detail' in body) || !Array.isArray(body.detail)) return undefined;
  return (body.detail as unknown[]).filter(
    (item): item is ValidationItem =>
      typeof item === 'object' &&
      item !== null &&
      'loc' in item &&
      Array.isArray(item.loc) &&
      'msg' in item &&
      typeof item.msg === 'string',
  );
}

/**
 * Puts a server's answer onto the form: each 422 item whose `loc` ends in one of the form's fields
 * goes onto that field; the rest (and any other failure) is returned for the form's error line.
 */
export function applyServerErrors<TValues extends FieldValues>(
  error: unknown,
  fieldNames: readonly string[],
  setFieldError: (name: Path<TValues>, message: string) => void,
): string | undefined {
  const items = validationItems(error);
  if (!items) return errorText(error);
  const unplaced: string[] = [];
  for (const item of items) {
    const field = item.loc.at(-1);
    if (typeof field === 'string' && fieldNames.includes(field)) setFieldError(field as Path<TValues>, item.msg);
    else unplaced.push(item.msg);
  }
  return unplaced.length > 0 ? unplaced.join(' ') : undefined;
}

/**
 * A dialog holding one form (react-hook-form with the zod resolver): validation on blur, a
 * LoadingButton while it submits, the server's 422 messages on their fields, everything else on the
 * form's error line. The form lives only while the dialog is open, so each opening starts from
 * `defaultValues` with no leftover messages; it closes itself on success.
 */
export function FormDialog<TValues extends FieldValues, TParsed = TValues>(props: FormDialogProps<TValues, TParsed>) {
  const titleId = useId();
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={props.maxWidth ?? 'sm'}
    >
      <FormDialogBody {...props} titleId={titleId} />
    </Dialog>
  );
}

function FormDialogBody<TValues extends FieldValues, TParsed>({
  titleId,
  title,
  schema,
  defaultValues,
  submitLabel,
  submittingText,
  cancelLabel = 'Cancel',
  onSubmit,
  onClose,
  canSubmit,
  disabledReason,
  children,
}: FormDialogProps<TValues, TParsed> & { titleId: string }) {
  const reasonId = useId();
  const [formError, setFormError] = useState<string>();
  const form = useForm<TValues, unknown, TParsed>({
    mode: 'onBlur',
    resolver: zodResolver(schema),
    defaultValues: defaultValues as DefaultValues<TValues>,
  });
  const values = useWatch({ control: form.control }) as TValues;
  const allowed = canSubmit ? canSubmit(values) : true;
  const submitting = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (parsed) => {
    setFormError(undefined);
    try {
      await onSubmit(parsed);
      onClose();
    } catch (error) {
      setFormError(
        applyServerErrors<TValues>(error, Object.keys(defaultValues), (name, message) =>
          form.setError(name, { type: 'server', message }),
        ),
      );
    }
  });

  return (
    <Box component="form" noValidate onSubmit={submit}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
          {formError ? (
            <Alert severity="error" role="alert">
              {formError}
            </Alert>
          ) : undefined}
          {children(form)}
          {!allowed && disabledReason ? <FormHelperText id={reasonId}>{disabledReason}</FormHelperText> : undefined}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={submitting}>
          {cancelLabel}
        </Button>
        <SubmitButton
          label={submitLabel}
          submittingText={submittingText}
          loading={submitting}
          disabled={!allowed}
          describedBy={!allowed && disabledReason ? reasonId : undefined}
        />
      </DialogActions>
    </Box>
  );
}

function SubmitButton({
  label,
  submittingText,
  loading,
  disabled,
  describedBy,
}: {
  label: string;
  submittingText?: string;
  loading: boolean;
  disabled: boolean;
  describedBy?: string;
}) {
  return (
    <LoadingButton
      type="submit"
      variant="contained"
      loading={loading}
      loadingText={submittingText}
      disabled={disabled}
      aria-describedby={describedBy}
    >
      {label}
    </LoadingButton>
  );
}
