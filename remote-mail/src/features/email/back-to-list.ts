import { useLocation, useNavigate } from 'react-router-dom';
import type { DetailLinkState } from '../quarantine/Page';

/**
 * Back to the list: to the very page it was opened from (filters, cursor and its history state)
 * when it was, else to the list's first page.
 */
export function useBackToList() {
  const navigate = useNavigate();
  const location = useLocation();
  const fromList = (location.state as Partial<DetailLinkState> | null)?.fromList === true;
  return () => {
    if (fromList) void navigate(-1);
    else void navigate('..');
  };
}
