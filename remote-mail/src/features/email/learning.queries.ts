import { createListEntry } from '@qc/api-client';
import type { LearnAs, NotSpamRequest } from '@qc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dashboardKeys } from '../dashboard/dashboard.queries';
import { quarantineKeys } from '../quarantine/quarantine.queries';
import { learnEmail, notSpam } from './learning.api';

/** A learn, a "Not spam" or a block changes the detail (learned state, status), lists and history. */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: quarantineKeys.all }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.counts }),
      queryClient.invalidateQueries({ queryKey: ['history'] }),
    ]);
}

/** POST /api/quarantine/{id}/learn/ */
export function useLearn() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, as }: { id: string; as: LearnAs }) => learnEmail(id, as),
    onSettled: invalidate,
  });
}

/** POST /api/quarantine/{id}/not-spam/ */
export function useNotSpam() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: NotSpamRequest }) => notSpam(id, body),
    onSettled: invalidate,
  });
}

/** POST /api/lists/ blacklist: "Block sender" for me (scope user) or my domain (scope domain). */
export function useBlockSender() {
  return useMutation({
    mutationFn: ({ address, scope, domain_id }: { address: string; scope: 'user' | 'domain'; domain_id?: string }) =>
      createListEntry({ kind: 'blacklist', address, scope, ...(domain_id ? { domain_id } : {}) }),
  });
}
