import type { ContactCreateSchema } from '@dataplatform/contract';
import { useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';

export type ContactSubmission = z.output<typeof ContactCreateSchema>;
export const CONTACT_FIELDS = ['name', 'email', 'company', 'phone', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
type FieldErrors = Partial<Record<ContactField, string>>;
type FieldElement = HTMLInputElement | HTMLTextAreaElement;

/** The validation code (zod and the contract's rules) arrives on the first focus, not with the page. */
export const loadContactValidation = () => import('./contact-validation.js');

/**
 * The contact form's state without a form library (the page's first load stays small): uncontrolled
 * inputs, each field validated against the contract's schema when it loses focus, every field on
 * submit (the first invalid one focused), and after a submit attempt on every change as well.
 */
export function useContactForm() {
  const elements = useRef<Partial<Record<ContactField | 'website', FieldElement | null>>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const [submitted, setSubmitted] = useState(false);

  const values = () => {
    const read = (name: ContactField | 'website') => elements.current[name]?.value ?? '';
    return {
      ...Object.fromEntries(CONTACT_FIELDS.map((name) => [name, read(name)])),
      source: 'website',
      website: read('website'),
    };
  };

  const validate = async () => {
    const { ContactCreateSchema } = await loadContactValidation();
    const result = ContactCreateSchema.safeParse(values());
    const found: FieldErrors = {};
    for (const issue of result.error?.issues ?? []) {
      const name = issue.path[0] as ContactField;
      if (CONTACT_FIELDS.includes(name)) found[name] ??= issue.message;
    }
    return { data: result.data, errors: found };
  };

  const revalidate = async (name: ContactField) => {
    const { errors: found } = await validate();
    setErrors((current) => ({ ...current, [name]: found[name] }));
  };

  /** The props a TextInput needs for one field. */
  const field = (name: ContactField) => ({
    name,
    inputRef: (element: FieldElement | null) => {
      elements.current[name] = element;
    },
    onBlur: () => void revalidate(name),
    onChange: () => {
      if (submitted) void revalidate(name);
    },
    error: errors[name] !== undefined,
    helperText: errors[name],
  });

  const honeypotRef = (element: HTMLInputElement | null) => {
    elements.current.website = element;
  };

  const handleSubmit = (onValid: (submission: ContactSubmission) => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const { data, errors: found } = await validate();
    setErrors(found);
    if (!data) {
      const firstInvalid = CONTACT_FIELDS.find((name) => found[name] !== undefined);
      if (firstInvalid) elements.current[firstInvalid]?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await onValid(data);
    } finally {
      setSubmitting(false);
    }
  };

  const reset = () => {
    for (const element of Object.values(elements.current)) if (element) element.value = '';
    setErrors({});
    setSubmitted(false);
  };

  return { field, honeypotRef, handleSubmit, isSubmitting, reset };
}
