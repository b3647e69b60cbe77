import type { ProductsDeps } from '../products/products.deps';

/** A scheduled upload is the products module's push, run by a job. */
export type SchedulesDeps = ProductsDeps;
