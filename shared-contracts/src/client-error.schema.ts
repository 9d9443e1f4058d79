import { z } from 'zod';

/** Body of the client-error report endpoint; bounded so a report cannot be used to fill a disk. */
export const clientErrorReportSchema = z.object({
  message: z.string().min(1).max(2000),
  source: z.string().max(500).optional(),
  stack: z.string().max(8000).optional(),
  url: z.string().max(2048),
  origin: z.string().max(64).optional(),
  kind: z.enum(['error', 'unhandledrejection', 'boundary', 'remote-load']),
});
/** Body of the client-error report endpoint. */
export type ClientErrorReportBody = z.infer<typeof clientErrorReportSchema>;
