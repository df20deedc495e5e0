import { z } from 'zod';

export const enumerationSchema = z.object({
  values: z.record(z.string(), z.union([z.number(), z.string()])),
  i18n: z.record(z.string(), z.string()),
});
export const enumsResponseSchema = z.object({ data: z.record(z.string(), enumerationSchema) });
export type Enumerations = z.infer<typeof enumsResponseSchema>['data'];
