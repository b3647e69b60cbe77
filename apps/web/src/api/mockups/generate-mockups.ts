import type { MockupAdjustments, TMockupBatchJob } from '@podforge/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type GenerateMockupsInput = {
  designId: string;
  productType: string;
  adjustments: MockupAdjustments;
  templateIds?: string[];
  colors?: string[];
};

export const getMockupBatchJob = (jobId: string, signal?: AbortSignal) =>
  api.get<TMockupBatchJob>(`/api/mockups/batch/${jobId}`, signal);

const POLL_MS = 250;

/**
 * Starts a batch render as a job and polls it, reporting real progress (`done` of `total`) until it ends.
 */
export async function generateMockups(
  input: GenerateMockupsInput,
  onProgress: (job: TMockupBatchJob) => void,
): Promise<TMockupBatchJob> {
  let job = await api.post<TMockupBatchJob>('/api/mockups/batch', { ...input, async: true });
  onProgress(job);
  while (job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = await getMockupBatchJob(job.jobId);
    onProgress(job);
  }
  if (job.status === 'failed') throw new Error(job.error ?? 'Rendering failed');
  return job;
}

export const useGenerateMockups = (onProgress: (job: TMockupBatchJob) => void) =>
  useMutation({ mutationFn: (input: GenerateMockupsInput) => generateMockups(input, onProgress) });
