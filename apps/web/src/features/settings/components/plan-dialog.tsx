// First: Zod's settings must be in place before any schema is built.
import '@dataplatform/contract/zod-config';
import { BILLING_PERIODS, type Plan, type PlanCreate } from '@dataplatform/contract';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { FormDialog } from '../../../components/form-dialog.js';
import { fieldProps } from '../../../components/form-field.js';
import { planRolesQueryOptions } from '../api/plans.js';

/** Digits with an optional decimal point (SET-PLANS-6), at most two decimals. */
const PRICE_INPUT = /^\d+(\.\d{1,2})?$/;

export const planFormMessages = {
  name: 'Plan name is required',
  description: 'Plan description is required',
  priceRequired: 'Price is required',
  priceInvalid: 'Price must be digits with an optional decimal point, like 49 or 49.99',
  period: 'Billing period is required',
  features: 'At least one feature is required',
  status: 'Status is required',
} as const;

/** Every field required (SET-PLANS-5); features one per line, blank lines dropped. */
const PlanFormSchema = z
  .object({
    name: z.string().trim().min(1, planFormMessages.name),
    description: z.string().trim().min(1, planFormMessages.description),
    price: z.string().trim().min(1, planFormMessages.priceRequired).regex(PRICE_INPUT, planFormMessages.priceInvalid),
    billing_period: z.enum(BILLING_PERIODS, { error: planFormMessages.period }),
    features: z
      .string()
      .transform((text) =>
        text
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== ''),
      )
      .refine((lines) => lines.length > 0, planFormMessages.features),
    status: z.enum(['active', 'inactive'], { error: planFormMessages.status }),
    role_ids: z.array(z.string()),
  })
  .transform(({ status, ...plan }): PlanCreate => ({ ...plan, is_active: status === 'active' }));
type PlanFormValues = z.input<typeof PlanFormSchema>;

function valuesOf(plan: Plan | undefined): PlanFormValues {
  if (!plan) {
    return {
      name: '',
      description: '',
      price: '',
      billing_period: 'monthly',
      features: '',
      status: 'active',
      role_ids: [],
    };
  }
  return {
    name: plan.name,
    description: plan.description,
    price: plan.price,
    billing_period: plan.billing_period,
    features: plan.features.join('\n'),
    status: plan.is_active ? 'active' : 'inactive',
    role_ids: plan.role_ids,
  };
}

/**
 * Add Plan / Edit Plan for superusers: name, description, price, billing period, features, status,
 * and the roles the plan grants its subscribers while they pay (PLAN-ROLES-1).
 */
export function PlanDialog({
  open,
  plan,
  onSubmit,
  onClose,
}: {
  open: boolean;
  /** The plan being edited; absent when adding. */
  plan: Plan | undefined;
  onSubmit: (values: PlanCreate) => Promise<unknown>;
  onClose: () => void;
}) {
  const roles = useQuery(planRolesQueryOptions());
  return (
    <FormDialog
      open={open}
      title={plan ? 'Edit Plan' : 'Add Plan'}
      schema={PlanFormSchema}
      defaultValues={valuesOf(plan)}
      submitLabel={plan ? 'Save' : 'Create'}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {(form) => (
        <>
          <TextField {...fieldProps(form, 'name')} label="Name" required fullWidth />
          <TextField
            {...fieldProps(form, 'description')}
            label="Description"
            required
            fullWidth
            multiline
            minRows={2}
          />
          <TextField
            {...fieldProps(form, 'price')}
            label="Price"
            required
            fullWidth
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
          <TextField
            {...fieldProps(form, 'billing_period')}
            select
            label="Billing period"
            required
            fullWidth
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            <option value="monthly">Monthly</option>
            <option value="annual">Annual</option>
          </TextField>
          <TextField
            {...fieldProps(form, 'features')}
            label="Features (one per line)"
            required
            fullWidth
            multiline
            minRows={3}
          />
          <TextField
            {...fieldProps(form, 'status')}
            select
            label="Status"
            required
            fullWidth
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </TextField>
          {roles.data ? (
            <Controller
              control={form.control}
              name="role_ids"
              render={({ field }) => {
                const byId = new Map(roles.data.data.map((role) => [role.id, role]));
                return (
                  <Autocomplete
                    multiple
                    disableCloseOnSelect
                    options={roles.data.data}
                    value={field.value.flatMap((id) => byId.get(id) ?? [])}
                    onChange={(_event, chosen) => field.onChange(chosen.map((role) => role.id))}
                    onBlur={field.onBlur}
                    getOptionLabel={(role) => role.name}
                    isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
                    noOptionsText="No roles yet: create one in the admin console."
                    renderInput={(params) => (
                      <TextField
                        {...params}
                        inputRef={field.ref}
                        label="Roles granted while subscribed"
                        helperText="Subscribers hold these roles until their paid period ends."
                      />
                    )}
                  />
                );
              }}
            />
          ) : (
            <Typography role="status" variant="body2" color={roles.isError ? 'error' : 'text.secondary'}>
              {roles.isError ? 'Roles could not be loaded.' : 'Loading roles...'}
            </Typography>
          )}
        </>
      )}
    </FormDialog>
  );
}
