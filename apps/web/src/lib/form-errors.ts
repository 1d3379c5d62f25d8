import type { FieldValues, Path } from 'react-hook-form';
import { ApiError, errorText } from './api-error.js';

interface ValidationItem {
  loc: readonly unknown[];
  msg: string;
}

function validationItems(error: unknown): ValidationItem[] | undefined {
  if (!(error instanceof ApiError) || error.status !== 422) return undefined;
  const body = error.body;
  if (typeof body !== 'object' || body === null || !('detail' in body) || !Array.isArray(body.detail)) return undefined;
  return (body.detail as unknown[]).filter(
    (item): item is ValidationItem =>
      typeof item === 'object' &&
      item !== null &&
      'loc' in item &&
      Array.isArray(item.loc) &&
      'msg' in item &&
      typeof item.msg === 'string',
  );
}

/**
 * Puts a server's answer onto the form: each 422 item whose `loc` ends in one of the form's fields
 * goes onto that field; the rest (and any other failure) is returned for the form's error line.
 */
export function applyServerErrors<TValues extends FieldValues>(
  error: unknown,
  fieldNames: readonly string[],
  setFieldError: (name: Path<TValues>, message: string) => void,
): string | undefined {
  const items = validationItems(error);
  if (!items) return errorText(error);
  const unplaced: string[] = [];
  for (const item of items) {
    const field = item.loc.at(-1);
    if (typeof field === 'string' && fieldNames.includes(field)) setFieldError(field as Path<TValues>, item.msg);
    else unplaced.push(item.msg);
  }
  return unplaced.length > 0 ? unplaced.join(' ') : undefined;
}
