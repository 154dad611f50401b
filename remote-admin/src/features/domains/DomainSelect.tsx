import Select from 'antd/es/select';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDomain, useDomainList } from './domains.queries';

/** How many domains the select offers at once; typing searches the server for the others. */
const OPTIONS_PAGE = '50';
const SEARCH_DEBOUNCE_MS = 300;

export interface DomainSelectProps {
  id?: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
  placeholder?: string;
  allowClear?: boolean;
  disabled?: boolean;
  status?: 'error' | '';
  'aria-describedby'?: string;
  'data-testid'?: string;
  style?: React.CSSProperties;
}

/**
 * A domain picked by id, searched on the server by the start of its name (GET /api/domains/?q=):
 * admins only (the route is admin-only). A chosen domain that is not among the options shown is
 * fetched by id, so the select says its name, not its id.
 */
export function DomainSelect({
  id,
  value,
  onChange,
  placeholder,
  allowClear,
  disabled,
  status,
  style,
  ...rest
}: DomainSelectProps) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);
  const list = useDomainList({ page_size: OPTIONS_PAGE, ...(q ? { q } : {}) });
  const listed = useMemo(() => list.data?.results ?? [], [list.data]);
  const missing = Boolean(value) && !listed.some((d) => d.id === value);
  const chosen = useDomain(value ?? '', { enabled: missing && !list.isPending });
  const options = useMemo(() => {
    const all = listed.map((d) => ({ value: d.id, label: d.display_name, title: d.name }));
    if (value && missing && chosen.data) {
      all.unshift({ value, label: chosen.data.display_name, title: chosen.data.name });
    }
    return all;
  }, [listed, value, missing, chosen.data]);

  return (
    <Select<string>
      id={id}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      placeholder={placeholder ?? t('form.domain_placeholder')}
      allowClear={allowClear}
      disabled={disabled}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={list.isFetching}
      notFoundContent={list.isPending ? null : t('domains.empty')}
      status={status}
      style={style}
      aria-describedby={rest['aria-describedby']}
      data-testid={rest['data-testid']}
    />
  );
}
