import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Box from '@mui/material/Box';
import { useId } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';

/**
 * What the checkbox needs of its form: methods only, so this file loads no react-hook-form code. The
 * input is not registered by ref: react-hook-form reads a registered checkbox from the DOM, where a
 * disabled one reads as false (a superuser's own, locked Admin box would be sent as a demotion).
 */
type CheckboxForm<TValues extends FieldValues> = Pick<UseFormReturn<TValues>, 'watch' | 'setValue'>;

/** A labelled checkbox bound to a boolean form field, with an optional explanation under it. */
export function CheckboxField<TValues extends FieldValues>({
  form,
  name,
  label,
  disabled = false,
  helperText,
}: {
  form: CheckboxForm<TValues>;
  name: Path<TValues>;
  label: string;
  disabled?: boolean;
  helperText?: string;
}) {
  const helperId = useId();
  return (
    <Box>
      <FormControlLabel
        label={label}
        disabled={disabled}
        control={
          <Checkbox
            name={name}
            checked={Boolean(form.watch(name))}
            onChange={(event) =>
              form.setValue(name, event.target.checked as PathValue<TValues, Path<TValues>>, { shouldDirty: true })
            }
            slotProps={{ input: { 'aria-describedby': helperText ? helperId : undefined } }}
          />
        }
      />
      {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : undefined}
    </Box>
  );
}
