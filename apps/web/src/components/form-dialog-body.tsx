import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import { useId, useState } from 'react';
import { useForm, useWatch, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { applyServerErrors } from '../lib/form-errors.js';
import type { FormDialogProps } from './form-dialog.js';
import { FormError } from './form-error.js';

/** FormDialog's form (react-hook-form and the zod resolver load with the dialog, on its first opening). */
export function FormDialogBody<TValues extends FieldValues, TParsed>({
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
}: Omit<FormDialogProps<TValues, TParsed>, 'schema'> & { titleId: string; schema: z.ZodType<TParsed, TValues> }) {
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
          <FormError message={formError} />
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
    <Button
      type="submit"
      variant="contained"
      loading={loading}
      // With a submitting text the spinner goes before it; without, it stands in the label's place.
      loadingPosition={submittingText ? 'start' : 'center'}
      disabled={disabled}
      aria-describedby={describedBy}
    >
      {loading && submittingText ? submittingText : label}
    </Button>
  );
}
