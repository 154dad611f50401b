import Select from 'antd/es/select';
import { useEffect, useMemo, useState, type CSSProperties } from 'react';

export interface SearchOption {
  value: string;
  label: string;
}

export interface SearchSelectProps {
  id?: string;
  value?: string;
  /** The option chosen, so the caller keeps its label (a later search may not list it). */
  onChange: (option: SearchOption | null) => void;
  /** Options matching `q` (the server's search); rejected or aborted: no options. */
  search: (q: string, signal: AbortSignal) => Promise<SearchOption[]>;
  /** The chosen option as known already, so it is named before any search. */
  known?: SearchOption | null;
  placeholder?: string;
  notFound?: string;
  allowClear?: boolean;
  style?: CSSProperties;
  'data-testid'?: string;
  'aria-label'?: string;
}

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A select whose options come from a server search as one types (a user or a domain picker):
 * debounced, the previous search aborted. Kept free of any api so each app says what it searches.
 */
export function SearchSelect({
  id,
  value,
  onChange,
  search,
  known,
  placeholder,
  notFound,
  allowClear,
  style,
  ...rest
}: SearchSelectProps) {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  // The options with the search they answer: loading while that is not the search typed.
  const [found, setFound] = useState<{ q: string; options: SearchOption[] } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    search(q, controller.signal).then(
      (options) => !controller.signal.aborted && setFound({ q, options }),
      () => !controller.signal.aborted && setFound({ q, options: [] }),
    );
    return () => controller.abort();
  }, [q, search]);
  const loading = found?.q !== q;
  const options = useMemo(() => found?.options ?? [], [found]);
  const shown = useMemo(
    () =>
      known && known.value === value && !options.some((o) => o.value === known.value) ? [known, ...options] : options,
    [known, value, options],
  );
  return (
    <Select<string>
      id={id}
      value={value}
      onChange={(v) => onChange(v ? (shown.find((o) => o.value === v) ?? null) : null)}
      options={shown}
      placeholder={placeholder}
      allowClear={allowClear}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={loading}
      notFoundContent={loading ? null : notFound}
      style={style}
      aria-label={rest['aria-label']}
      data-testid={rest['data-testid']}
    />
  );
}
