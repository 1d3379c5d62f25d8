import { useCallback, useState } from 'react';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

const loadZodResolver = () => import('@hookform/resolvers/zod').then((module) => module.zodResolver);

/**
 * A form's schema fetched when the person nears the form rather than with the page: zod's schema
 * classes are about 22 KB gzipped, more than a tab's own code (decision 030). `fetchSchema`
 * starts the download (call it on the form's first focus or pointer); `schema` is the schema once it
 * is here; `resolver` validates with it, waiting for it if a check comes first. `load` must be stable
 * (a module-level function), e.g. `() => import('./x-schema.js').then((m) => m.XSchema)`.
 */
export function useSchemaOnDemand<TValues extends FieldValues, TParsed>(
  load: () => Promise<z.ZodType<TParsed, TValues>>,
) {
  const [schema, setSchema] = useState<z.ZodType<TParsed, TValues>>();
  const fetchSchema = useCallback(() => {
    void load().then(setSchema);
    void loadZodResolver();
  }, [load]);
  const resolver = useCallback<Resolver<TValues, unknown, TParsed>>(
    async (values, context, options) => {
      const [zodResolver, loaded] = await Promise.all([loadZodResolver(), load()]);
      return zodResolver(loaded)(values, context, options);
    },
    [load],
  );
  return { schema, fetchSchema, resolver };
}
