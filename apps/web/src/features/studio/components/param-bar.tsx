import type { ReportParamPublic } from '@dataplatform/contract';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState, useTransition, type FormEvent } from 'react';
import { OutlinedField, type OutlinedFieldProps } from '../../../components/outlined-field.js';
import { paramOptionsQueryOptions } from '../api/reports.js';
import { defaultText, type ParamValues } from '../report-view.js';

// A phone gives each field a row of its own: a field beside the Apply button is too narrow for a
// label such as "State (two letters, blank for all)".
const fieldSx = { minWidth: 180, flex: { xs: '1 1 100%', sm: '1 1 180px' }, maxWidth: { sm: 280 } };

const ChoiceField = lazy(() => import('./choice-field.js'));
// A queried select's list (Autocomplete and Popper, about 19 KB): fetched as a pointer nears the
// field and shown once it is reached; a report's first view and its first chart never wait for it.
const loadAutocomplete = () => import('./queried-autocomplete.js');
const QueriedAutocomplete = lazy(loadAutocomplete);

/** One typed input of the bar: TextField's parts (components/outlined-field.tsx), small. */
function ParamField(props: Omit<OutlinedFieldProps, 'size' | 'sx'>) {
  return <OutlinedField {...props} size="small" sx={fieldSx} />;
}

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
  // Whether the person has reached for the field (pointer down or focus): the list then takes its
  // place, focused and open, so a click or a Tab lands where it was aimed.
  const [reached, setReached] = useState(false);
  if (options.isError) {
    return (
      <ParamField
        label={param.label}
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
  if (!reached) {
    // The list's stand-in until its code is in: the same field, its value shown, not yet editable.
    return (
      <ParamField
        label={param.label}
        value={value}
        readOnly
        inputProps={{ role: 'combobox', 'aria-expanded': false, 'aria-autocomplete': 'list' }}
        endAdornment={<ArrowDropDownIcon sx={{ color: 'action.active', mr: -0.5 }} />}
        onPointerEnter={() => void loadAutocomplete()}
        onFocus={() => setReached(true)}
        onPointerDown={() => setReached(true)}
      />
    );
  }
  return (
    <Suspense fallback={<ParamField label={param.label} value={value} readOnly />}>
      <QueriedAutocomplete
        label={param.label}
        values={values}
        value={value}
        loading={options.isPending}
        onChange={onChange}
        autoFocus
        sx={fieldSx}
      />
    </Suspense>
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
        const common = { label: param.label, value };
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
            // Until its chunk is in, the field shows its value where the select will be.
            <Suspense key={param.name} fallback={<ParamField {...common} readOnly />}>
              <ChoiceField
                {...common}
                choices={choices}
                sx={fieldSx}
                onChange={(next) => apply({ ...draft, [param.name]: next })}
              />
            </Suspense>
          );
        }
        if (param.type === 'date') {
          return (
            <ParamField
              key={param.name}
              {...common}
              type="date"
              shrink
              onChange={(event) => apply({ ...draft, [param.name]: event.target.value })}
            />
          );
        }
        return (
          <ParamField
            key={param.name}
            {...common}
            {...(param.type === 'number' ? { inputProps: { inputMode: 'decimal' } } : {})}
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
