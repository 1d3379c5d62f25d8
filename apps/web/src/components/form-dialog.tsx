import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A form's schema, or a loader of it: a screen that passes a loader keeps zod out of its own chunk,
 * and the schema arrives with the form when the dialog opens (decision 030).
 */
export type SchemaSource<TParsed, TValues> = z.ZodType<TParsed, TValues> | (() => Promise<z.ZodType<TParsed, TValues>>);

export interface FormDialogProps<TValues extends FieldValues, TParsed> {
  open: boolean;
  title: string;
  /** Validates on blur and on submit; its output is what `onSubmit` receives. */
  schema: SchemaSource<TParsed, TValues>;
  defaultValues: TValues;
  submitLabel: string;
  submittingText?: string;
  cancelLabel?: string;
  onSubmit: (values: TParsed) => Promise<unknown>;
  onClose: () => void;
  /** Watched as the person types: Submit is disabled while it answers false. */
  canSubmit?: (values: TValues) => boolean;
  /** Shown under the fields while `canSubmit` answers false. */
  disabledReason?: string;
  children: (form: UseFormReturn<TValues, unknown, TParsed>) => ReactNode;
  maxWidth?: 'xs' | 'sm' | 'md';
}

/**
 * A dialog holding one form (react-hook-form with the zod resolver): validation on blur, a
 * loading Button while it submits, the server's 422 messages on their fields, everything else on the
 * form's error line. The form lives only while the dialog is open, so each opening starts from
 * `defaultValues` with no leftover messages; it closes itself on success. The dialog's code (MUI's
 * Dialog, the form, its fields, and the schema when given as a loader) loads when it first opens, or
 * earlier through `preloadFormDialog` (decision 030).
 */
export function FormDialog<TValues extends FieldValues, TParsed = TValues>(props: FormDialogProps<TValues, TParsed>) {
  // Mounted from the first opening on, so closing keeps the dialog's exit transition.
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  const Frame = FormDialogFrame as ComponentType<FormDialogProps<TValues, TParsed>>;
  return (
    <Suspense fallback={null}>
      <Frame {...props} />
    </Suspense>
  );
}

const loadFrame = () => import('./form-dialog-frame.js');
const FormDialogFrame = lazy(async () => ({ default: (await loadFrame()).FormDialogFrame }));

/**
 * Fetches a FormDialog's code ahead of its opening: call it as the pointer or the focus reaches the
 * button that opens one, so the dialog shows at once.
 */
export function preloadFormDialog(): void {
  void loadFrame();
}
