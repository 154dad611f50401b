import { UsersRoutes } from '../features/users/UsersRoutes';
import { RemoteRoot } from './RemoteRoot';

/** remote_admin/Users: the host mounts it at `users/*` (list, `new`, `{id}`) for domain_admin and admin. */
export default function ExposedUsers() {
  return (
    <RemoteRoot>
      <UsersRoutes />
    </RemoteRoot>
  );
}
