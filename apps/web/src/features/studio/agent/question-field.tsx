import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId, type FormEvent, type KeyboardEvent } from 'react';

/** The question box: Enter asks, Shift+Enter starts a new line. */
export function QuestionField({
  value,
  onChange,
  onAsk,
  busy,
  label,
  example,
}: {
  value: string;
  onChange: (value: string) => void;
  onAsk: () => void;
  busy: boolean;
  label: string;
  /** A question one might ask here, quoted. */
  example: string;
}) {
  const ids = { input: useId(), help: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy && value.trim() !== '') onAsk();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  return (
    <Box
      component="form"
      onSubmit={submit}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
    >
      <FormControl variant="outlined" sx={{ flex: '1 1 280px' }}>
        <InputLabel htmlFor={ids.input}>{label}</InputLabel>
        <OutlinedInput
          id={ids.input}
          label={label}
          multiline
          minRows={1}
          maxRows={6}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          inputProps={{ maxLength: 4000, 'aria-describedby': ids.help }}
        />
        <FormHelperText id={ids.help}>
          For example: {example}. Enter asks; Shift+Enter starts a new line.
        </FormHelperText>
      </FormControl>
      <Button type="submit" variant="contained" size="large" disabled={busy || value.trim() === ''} sx={{ mt: 0.5 }}>
        Ask
      </Button>
    </Box>
  );
}
