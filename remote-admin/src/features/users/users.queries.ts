import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { domainKeys } from '../domains/domains.queries';
import {
  createUser,
  deleteUser,
  getUser,
  listUsers,
  resendInvitation,
  resetUserMfa,
  updateUser,
  type UserListParams,
} from './users.api';
import type { UserCreate, UserUpdate } from './users.types';

/** Query keys of user administration (apart from the host's own `users/me`). */
export const userKeys = {
  all: ['admin', 'users'] as const,
  lists: ['admin', 'users', 'list'] as const,
  list: (query: UserListParams) => ['admin', 'users', 'list', query] as const,
  detail: (id: string) => ['admin', 'users', 'detail', id] as const,
};

/** GET /api/users/: one keyset page; the previous page stays shown while the next one loads. */
export function useUserList(query: UserListParams) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => listUsers(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/users/{id}/ */
export function useUser(id: string) {
  return useQuery({ queryKey: userKeys.detail(id), queryFn: ({ signal }) => getUser(id, signal) });
}

/** A user was created, changed or deleted: the lists and the domains' user counts are stale. */
function useInvalidateLists() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: userKeys.lists }),
      queryClient.invalidateQueries({ queryKey: domainKeys.all }),
    ]);
}

/** POST /api/users/ */
export function useCreateUser() {
  const invalidate = useInvalidateLists();
  return useMutation({ mutationFn: (body: UserCreate) => createUser(body), onSuccess: () => invalidate() });
}

/** PATCH /api/users/{id}/: the answer is the user as now stored. */
export function useUpdateUser(id: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: (changes: UserUpdate) => updateUser(id, changes),
    onSuccess: (user) => {
      queryClient.setQueryData(userKeys.detail(id), user);
      return invalidate();
    },
  });
}

/** DELETE /api/users/{id}/ */
export function useDeleteUser(id: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: () => deleteUser(id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: userKeys.detail(id) });
      return invalidate();
    },
  });
}

/** POST /api/users/{id}/mfa/reset/: the user's two-factor state changed. */
export function useResetUserMfa(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resetUserMfa(id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: userKeys.lists }),
      ]),
  });
}

/** POST /api/users/{id}/invitation/ (a user who has not chosen a password yet). */
export function useResendInvitation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resendInvitation(id),
    // 409 invitation_not_pending: they chose a password meanwhile; the page should say so.
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.detail(id) }),
  });
}
