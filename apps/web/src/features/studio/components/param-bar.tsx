import type { ReportParamPublic } from '@dataplatform/contract';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState, useTransition, type FormEvent } from 'react';
import { paramOptionsQueryOptions } from '../api/reports.js';
import { defaultText, type ParamValues } from '../report-view.js';

const fieldSx = { minWidth: 180, flex: '1 1 180px', maxWidth: { sm: 280 } };

/**
 * A select whose values come from the report's query: searchable, as such lists are long (every
 * billing code). Until they arrive it shows the current value; if they cannot be loaded, it is a
 * text field and says so, so the report stays usable.
 */
function QueriedSelect({
  report,
  param,
  value,
  onChange,
}: {
  report: { id: string; version: number };
  param: ReportParamPublic;
  value: string;
  onChange: (value: string) => void;
}) {
  const options = useQuery(paramOptionsQueryOptions(report.id, report.version, param.name));
  const values = options.data?.data.map(String) ?? [];
  if (options.isError) {
    return (
      <TextField
        label={param.label}
        size="small"
        sx={fieldSx}
        defaultValue={value}
        helperText="The list could not be loaded: type a value and press Enter."
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            onChange((event.target as HTMLInputElement).value);
          }
        }}
      />
    );
  }
  return (
    <Autocomplete
      size="small"
      sx={fieldSx}
      options={values.length > 0 || !value ? values : [value]}
      value={value || null}
      loading={options.isPending}
      loadingText="Loading the values..."
      noOptionsText="No value matches"
      disableClearable={Boolean(value)}
      onChange={(_, next) => {
        if (next !== null) onChange(next);
      }}
      renderInput={(input) => <TextField {...input} label={param.label} />}
    />
  );
}

/**
 * The report's parameters as inputs by type. A select, a yes/no and a date apply at once; text
 * and numbers apply with Enter or Apply, so a half-typed value does not run every block.
 */
export function ParamBar({
  report,
  params,
  values,
  onApply,
}: {
  /** The saved report whose select queries give their values; without one they are text fields. */
  report?: { id: string; version: number };
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
  // The blocks redraw for the new values as a transition: the bar answers the press at once (the
  // value shown, Apply busy) and the report follows, even when its results are already at hand.
  const [applying, startApplying] = useTransition();
  const apply = (next: ParamValues) => {
    setDraft(next);
    startApplying(() => onApply(next));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    startApplying(() => onApply(draft));
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
          sx: fieldSx,
        };
        if (param.type === 'select' && param.options === null && param.options_sql !== null && report) {
          return (
            <QueriedSelect
              key={param.name}
              report={report}
              param={param}
              value={value}
              onChange={(next) => apply({ ...draft, [param.name]: next })}
            />
          );
        }
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
      {/* Not Apply's own `loading`, which disables it: a newer value may be applied over a pending one. */}
      {applying ? (
        <CircularProgress size={20} aria-label="Updating the report" sx={{ alignSelf: 'center' }} />
      ) : undefined}
    </Box>
  );
}
