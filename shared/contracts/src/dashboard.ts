import { z } from 'zod';

/** GET /api/dashboard/: counts of what the caller may see. */
export const DashboardCounts = z.object({
  pending: z.number().int().nonnegative(),
  released: z.number().int().nonnegative(),
  deleted: z.number().int().nonnegative(),
});
export type DashboardCounts = z.infer<typeof DashboardCounts>;

export const Health = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof Health>;
