import Select from 'antd/es/select';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SYSTEM_OWNER, useOwner, useUserSearch, type OwnerUser } from './owners';

const SEARCH_DEBOUNCE_MS = 300;

export interface OwnerSelectProps {
  id?: string;
  /** `system`, a user id, or undefined (none chosen: "any owner" in a filter). */
  value?: string;
  onChange?: (value: string | undefined, user: OwnerUser | null) => void;
  /** The owner as known already (an edited filter's), so it is named before any search. */
  known?: OwnerUser | null;
  placeholder?: string;
  allowClear?: boolean;
  'data-testid'?: string;
}

/**
 * "System" or a user, searched on the server (GET /api/users/?q=) as one types. A chosen user not
 * among the options shown (from the URL) is fetched by id, so the select says their address.
 */
export function OwnerSelect({ id, value, onChange, known, placeholder, allowClear, ...rest }: OwnerSelectProps) {
  const { t } = useTranslation('rspamd');
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);
  const users = useUserSearch(q);
  const listed = useMemo(() => users.data?.results ?? [], [users.data]);
  const isUser = Boolean(value) && value !== SYSTEM_OWNER;
  const knownUser = known && known.id === value ? known : null;
  const missing = isUser && !knownUser && !listed.some((u) => u.id === value);
  const fetched = useOwner(value ?? '', missing && !users.isPending);
  const chosen: OwnerUser | null = useMemo(
    () => knownUser ?? (fetched.data ? { id: fetched.data.id, email: fetched.data.email } : null),
    [knownUser, fetched.data],
  );

  const options = useMemo(() => {
    const all = listed.map((u) => ({ value: u.id, label: u.email }));
    if (isUser && chosen && !all.some((o) => o.value === chosen.id))
      all.unshift({ value: chosen.id, label: chosen.email });
    // "System" first, unless a search is typed that it does not match.
    const system = { value: SYSTEM_OWNER, label: t('apanel.owner_system') };
    return !q || system.label.toLowerCase().includes(q.toLowerCase()) ? [system, ...all] : all;
  }, [listed, isUser, chosen, q, t]);

  return (
    <Select<string>
      id={id}
      value={value}
      onChange={(v) => {
        const user = v && v !== SYSTEM_OWNER ? (listed.find((u) => u.id === v) ?? chosen) : null;
        onChange?.(v ?? undefined, user ? { id: user.id, email: user.email } : null);
      }}
      options={options}
      placeholder={placeholder}
      allowClear={allowClear}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={users.isFetching}
      notFoundContent={users.isPending ? null : t('apanel.no_user')}
      data-testid={rest['data-testid']}
    />
  );
}
