import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

/** What the helpers need of a form, whatever its submitted (parsed) type. */
export type FormHandle<T extends FieldValues> = Pick<UseFormReturn<T>, 'register' | 'formState'>;

/**
 * Wires a MUI TextField to react-hook-form: the input ref, handlers, and the field's message. With
 * `reserveMessageSpace` an empty message line is kept, so a message appearing moves nothing below it
 * (for forms whose buttons sit under the fields on the page, not in a dialog).
 */
export function fieldProps<T extends FieldValues>(
  form: FormHandle<T>,
  name: Path<T>,
  { reserveMessageSpace = false }: { reserveMessageSpace?: boolean } = {},
) {
  const { ref, ...registration } = form.register(name);
  const message = fieldError(form, name);
  return {
    ...registration,
    inputRef: ref,
    error: message !== undefined,
    helperText: message ?? (reserveMessageSpace ? ' ' : undefined),
  };
}

/**
 * The value at a dotted path ("members.0.email"), as react-hook-form's `get` reads errors; written
 * here so the screens that only lay fields out do not load react-hook-form's runtime.
 */
function valueAt(source: unknown, path: string): unknown {
  let current = source;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The message of a field's error, if it has one. */
export function fieldError<T extends FieldValues>(form: FormHandle<T>, name: Path<T>): string | undefined {
  const error: unknown = valueAt(form.formState.errors, name);
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return undefined;
}

/** PasswordField's variant: the message goes to `errorMessage`. */
export function passwordFieldProps<T extends FieldValues>(form: FormHandle<T>, name: Path<T>) {
  const { ref, ...registration } = form.register(name);
  return { ...registration, inputRef: ref, errorMessage: fieldError(form, name) };
}
