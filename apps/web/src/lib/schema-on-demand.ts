import { useCallback, useState, type FocusEvent } from 'react';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

const loadZodResolver = () => import('@hookform/resolvers/zod').then((module) => module.zodResolver);

/**
 * A form's schema fetched when a person starts to fill the form in rather than with the page: zod's
 * schema classes are about 22 KB gzipped, more than a tab's own code (decision 030), and building
 * the contract's schemas is the heaviest module evaluation of an auth page. `onFormFocus` goes on
 * the form: a text field taking focus starts the download. A button does not (a press of the eye
 * button must not wait while the schemas are built). `schema` is the schema once it is here;
 * `resolver` validates with it, waiting for it if a check comes first. `load` must be stable (a
 * module-level function), e.g. `() => import('./x-schema.js').then((m) => m.XSchema)`.
 */
export function useSchemaOnDemand<TValues extends FieldValues, TParsed>(
  load: () => Promise<z.ZodType<TParsed, TValues>>,
) {
  const [schema, setSchema] = useState<z.ZodType<TParsed, TValues>>();
  const onFormFocus = useCallback(
    (event: FocusEvent) => {
      if (!(event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement)) return;
      void load().then(setSchema);
      void loadZodResolver();
    },
    [load],
  );
  const resolver = useCallback<Resolver<TValues, unknown, TParsed>>(
    async (values, context, options) => {
      const [zodResolver, loaded] = await Promise.all([loadZodResolver(), load()]);
      return zodResolver(loaded)(values, context, options);
    },
    [load],
  );
  return { schema, onFormFocus, resolver };
}
