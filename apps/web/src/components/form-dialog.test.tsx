import TextField from '@mui/material/TextField';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../lib/api-error.js';
import { fieldProps } from './form-field.js';
import { FormDialog } from './form-dialog.js';

const Schema = z.object({
  name: z.string().trim().min(1, 'Role name is required'),
  description: z.string(),
});

/** Opens the dialog and waits for its form, which loads when it opens (decision 030). */
async function renderDialog(
  onSubmit: (values: z.output<typeof Schema>) => Promise<unknown>,
  onClose = vi.fn(),
  schema: typeof Schema | (() => Promise<typeof Schema>) = Schema,
) {
  render(
    <FormDialog
      open
      title="Create New Role"
      schema={schema}
      defaultValues={{ name: '', description: '' }}
      submitLabel="Create"
      onSubmit={onSubmit}
      onClose={onClose}
      canSubmit={(values) => values.name.trim() !== ''}
      disabledReason="Role name is required"
    >
      {(form) => (
        <>
          <TextField {...fieldProps(form, 'name')} label="Name" />
          <TextField {...fieldProps(form, 'description')} label="Description" />
        </>
      )}
    </FormDialog>,
  );
  await screen.findByRole('button', { name: 'Create' });
  return onClose;
}

describe('FormDialog', () => {
  it('takes its schema from a loader, fetched when the dialog opens', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    await renderDialog(onSubmit, vi.fn(), () => Promise.resolve(Schema));
    await user.type(screen.getByLabelText('Name'), ' loaded ');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).toHaveBeenCalledWith({ name: 'loaded', description: '' });
  });

  it('keeps Submit disabled, with the reason, until the rule holds', async () => {
    const user = userEvent.setup();
    await renderDialog(vi.fn());
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Create' })).toHaveAccessibleDescription('Role name is required');
    await user.type(screen.getByLabelText('Name'), 'auditor');
    expect(screen.getByRole('button', { name: 'Create' })).toBeEnabled();
    expect(screen.queryByText('Role name is required')).not.toBeInTheDocument();
  });

  it('submits the parsed values and closes on success', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const onClose = await renderDialog(onSubmit);
    await user.type(screen.getByLabelText('Name'), '  auditor ');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).toHaveBeenCalledWith({ name: 'auditor', description: '' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('puts a 422 detail array onto the matching fields and the rest on the form’s error line', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockRejectedValue(
      new ApiError({
        url: '/api/v1/authorization/roles',
        status: 422,
        statusText: 'Unprocessable Entity',
        body: {
          detail: [
            { loc: ['body', 'name'], msg: 'A role with this name already exists', type: 'value_error' },
            { loc: ['body'], msg: 'Something else is wrong', type: 'value_error' },
          ],
        },
      }),
    );
    const onClose = await renderDialog(onSubmit);
    await user.type(screen.getByLabelText('Name'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('A role with this name already exists');
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Something else is wrong');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows any other failure’s text on the error line and stays open', async () => {
    const user = userEvent.setup();
    const onSubmit = vi
      .fn()
      .mockRejectedValue(
        new ApiError({ url: '/x', status: 409, statusText: 'Conflict', body: { detail: 'Role name already exists' } }),
      );
    const onClose = await renderDialog(onSubmit);
    await user.type(screen.getByLabelText('Name'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Role name already exists');
    expect(onClose).not.toHaveBeenCalled();
  });
});
