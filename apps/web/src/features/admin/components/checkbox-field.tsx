import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Box from '@mui/material/Box';
import { useId } from 'react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

/** A labelled checkbox bound to a boolean form field, with an optional explanation under it. */
export function CheckboxField<TValues extends FieldValues, TParsed>({
  control,
  name,
  label,
  disabled = false,
  helperText,
}: {
  control: Control<TValues, unknown, TParsed>;
  name: Path<TValues>;
  label: string;
  disabled?: boolean;
  helperText?: string;
}) {
  const helperId = useId();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Box>
          <FormControlLabel
            label={label}
            disabled={disabled}
            control={
              <Checkbox
                name={field.name}
                checked={Boolean(field.value)}
                onChange={(event) => field.onChange(event.target.checked)}
                onBlur={field.onBlur}
                slotProps={{ input: { ref: field.ref, 'aria-describedby': helperText ? helperId : undefined } }}
              />
            }
          />
          {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : undefined}
        </Box>
      )}
    />
  );
}
