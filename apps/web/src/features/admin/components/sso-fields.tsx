import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { UseFormReturn } from 'react-hook-form';
import { fieldProps } from '../../../components/form-field.js';
import type { SsoConnectionFormValues } from '../schemas.js';
import { CheckboxField } from '../../../components/checkbox-field.js';

/** The fields of both dialogs; their schemas differ only in whether the secret is required. */
export function SsoFields<TParsed>({
  form,
  tenants,
  secretRequired,
}: {
  form: UseFormReturn<SsoConnectionFormValues, unknown, TParsed>;
  tenants: { id: string; name: string }[];
  secretRequired: boolean;
}) {
  const secret = fieldProps(form, 'client_secret');
  const secretHint = secretRequired
    ? 'Stored encrypted; it is never shown again.'
    : 'Stored encrypted and never shown. Leave blank to keep the current secret.';
  return (
    <>
      <TextField {...fieldProps(form, 'name')} label="Name" required autoComplete="off" />
      <TextField
        {...fieldProps(form, 'issuer')}
        label="Issuer URL"
        required
        placeholder="https://login.example.com"
        autoComplete="off"
        spellCheck={false}
      />
      <TextField {...fieldProps(form, 'client_id')} label="Client ID" required autoComplete="off" spellCheck={false} />
      <TextField
        {...secret}
        helperText={secret.helperText ?? secretHint}
        label="Client secret"
        type="password"
        required={secretRequired}
        autoComplete="new-password"
      />
      <TextField
        {...fieldProps(form, 'domains')}
        label="Allowed e-mail domains"
        required
        placeholder="example.com, example.org"
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        select
        label="Tenant"
        // "All (global)" is the empty value: shown, with the label above it.
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        name="tenant_id"
        value={form.watch('tenant_id')}
        onChange={(event) => form.setValue('tenant_id', event.target.value, { shouldDirty: true })}
      >
        <MenuItem value="">All (global)</MenuItem>
        {tenants.map((tenant) => (
          <MenuItem key={tenant.id} value={tenant.id}>
            {tenant.name}
          </MenuItem>
        ))}
      </TextField>
      <CheckboxField form={form} name="allow_password_recovery" label="Its users may also use password recovery" />
    </>
  );
}
