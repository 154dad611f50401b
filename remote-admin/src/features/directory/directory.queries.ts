import { useMutation, useQuery } from '@tanstack/react-query';
import { getDirectorySettings, testDirectoryLogin } from './directory.api';
import type { DirectoryTestRequest } from './directory.types';

export const directoryKeys = {
  settings: ['admin', 'directory', 'settings'] as const,
};

/** GET /api/admin/directory/ */
export function useDirectorySettings() {
  return useQuery({ queryKey: directoryKeys.settings, queryFn: ({ signal }) => getDirectorySettings(signal) });
}

/** POST /api/admin/directory/test/: nothing is created, so nothing to invalidate. */
export function useDirectoryTest() {
  return useMutation({ mutationFn: (body: DirectoryTestRequest) => testDirectoryLogin(body) });
}
