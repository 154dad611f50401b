import { DirectoryPage } from '../features/directory/Page';
import { RemoteRoot } from './RemoteRoot';

/** remote_admin/Directory: the host mounts it at `directory` for admins (Admin → Directory, issue 31). */
export default function ExposedDirectory() {
  return (
    <RemoteRoot>
      <DirectoryPage />
    </RemoteRoot>
  );
}
