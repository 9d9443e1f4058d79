import { z } from 'zod/mini';

/** Body of the client-error report endpoint; bounded so a report cannot be used to fill a disk. */
export const clientErrorReportSchema = z.object({
  message: z.string().check(z.minLength(1), z.maxLength(2000)),
  source: z.optional(z.string().check(z.maxLength(500))),
  stack: z.optional(z.string().check(z.maxLength(8000))),
  url: z.string().check(z.maxLength(2048)),
  origin: z.optional(z.string().check(z.maxLength(64))),
  kind: z.enum(['error', 'unhandledrejection', 'boundary', 'remote-load']),
});
/** Body of the client-error report endpoint. */
export type ClientErrorReportBody = z.infer<typeof clientErrorReportSchema>;
