import { act, renderHook } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { fieldProps } from './form-field.js';

function useNameForm() {
  const form = useForm<{ name: string }>({ defaultValues: { name: '' } });
  // formState is a proxy: reading errors during render subscribes to them, as a TextField would.
  void form.formState.errors;
  return form;
}

describe('fieldProps', () => {
  it('has no message line without an error, unless space for one is reserved', () => {
    const { result } = renderHook(useNameForm);
    expect(fieldProps(result.current, 'name')).toMatchObject({ name: 'name', error: false, helperText: undefined });
    expect(fieldProps(result.current, 'name', { reserveMessageSpace: true })).toMatchObject({
      error: false,
      helperText: ' ',
    });
  });

  it("shows the field's error message in place of the reserved line", () => {
    const { result } = renderHook(useNameForm);
    act(() => result.current.setError('name', { type: 'server', message: 'Name is taken' }));
    expect(fieldProps(result.current, 'name', { reserveMessageSpace: true })).toMatchObject({
      error: true,
      helperText: 'Name is taken',
    });
  });
});
