import type { ReportParamPublic } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';

/** A parameter's value as the URL and the inputs hold it: text, or absent for the default. */
export type ParamValues = Record<string, string>;

/** The default of a parameter as text, as an input shows it. */
export function defaultText(param: ReportParamPublic): string {
  return param.default === null ? '' : String(param.default);
}

/**
 * The report's parameters as inputs by type. A select, a yes/no and a date apply at once; text
 * and numbers apply with Enter or Apply, so a half-typed value does not run every block.
 */
export function ParamBar({
  params,
  values,
  onApply,
}: {
  params: ReportParamPublic[];
  values: ParamValues;
  onApply: (values: ParamValues) => void;
}) {
  const [draft, setDraft] = useState(values);
  // The URL changed under the bar (back, a shared link): show what it says.
  const [applied, setApplied] = useState(values);
  if (applied !== values) {
    setApplied(values);
    setDraft(values);
  }
  const apply = (next: ParamValues) => {
    setDraft(next);
    onApply(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const typed = params.some((param) => param.type === 'text' || param.type === 'number');

  return (
    <Box
      component="form"
      role="search"
      aria-label="Report parameters"
      onSubmit={submit}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}
    >
      {params.map((param) => {
        const value = draft[param.name] ?? defaultText(param);
        const common = {
          label: param.label,
          value,
          size: 'small' as const,
          sx: { minWidth: 180, flex: '1 1 180px', maxWidth: { sm: 280 } },
        };
        // A list with its values, or yes/no: chosen from a menu, applied at once.
        const choices =
          param.type === 'boolean'
            ? [
                { value: 'true', label: 'Yes' },
                { value: 'false', label: 'No' },
              ]
            : param.type === 'select' && param.options !== null
              ? param.options.map((option) => ({ value: String(option), label: String(option) }))
              : undefined;
        if (choices) {
          return (
            <TextField
              key={param.name}
              {...common}
              select
              onChange={(event) => apply({ ...draft, [param.name]: event.target.value })}
            >
              {choices.map((choice) => (
                <MenuItem key={choice.value} value={choice.value}>
                  {choice.label}
                </MenuItem>
              ))}
            </TextField>
          );
        }
        if (param.type === 'date') {
          return (
            <TextField
              key={param.name}
              {...common}
              type="date"
              slotProps={{ inputLabel: { shrink: true } }}
              onChange={(event) => apply({ ...draft, [param.name]: event.target.value })}
            />
          );
        }
        return (
          <TextField
            key={param.name}
            {...common}
            slotProps={param.type === 'number' ? { htmlInput: { inputMode: 'decimal' } } : undefined}
            onChange={(event) => setDraft({ ...draft, [param.name]: event.target.value })}
          />
        );
      })}
      {typed ? (
        <Button type="submit" variant="outlined" sx={{ height: 40 }}>
          Apply
        </Button>
      ) : undefined}
    </Box>
  );
}
