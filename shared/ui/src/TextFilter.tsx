import { CloseCircleFilled } from '@ant-design/icons';
import Input from 'antd/es/input';
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from './Field';

/** Typing settles for this long before the URL (and so the query) changes. */
export const FILTER_DEBOUNCE_MS = 400;

/**
 * A text kept locally while typing and committed after a pause (or Enter). When the committed value
 * changes from elsewhere (Back, reset), the draft follows it.
 */
export function useDraft(value: string, commit: (v: string) => void) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
  }
  const onCommit = useEffectEvent(commit);
  useEffect(() => {
    if (draft.trim() === value) return;
    const timer = setTimeout(() => onCommit(draft.trim()), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value]);
  const flush = () => {
    if (draft.trim() !== value) commit(draft.trim());
  };
  return [draft, setDraft, flush] as const;
}

export function TextFilter({
  id,
  label,
  value,
  onCommit,
  placeholder,
  width = 200,
  testId,
  prefix,
}: {
  id: string;
  label: string;
  value: string;
  onCommit: (v: string) => void;
  placeholder?: string;
  width?: number;
  testId: string;
  prefix?: ReactNode;
}) {
  const { t } = useTranslation('common');
  const [draft, setDraft, flush] = useDraft(value, onCommit);
  return (
    <Field id={id} label={label} width={width}>
      <Input
        id={id}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onPressEnter={flush}
        // The keyboard clears with Escape: the clear button is left out of the Tab order (Tab from
        // one filter went to it, and what was typed next was lost).
        onKeyDown={(e) => {
          if (e.key === 'Escape' && draft) setDraft('');
        }}
        placeholder={placeholder}
        prefix={prefix}
        suffix={
          draft ? (
            <button
              type="button"
              tabIndex={-1}
              className="ant-input-clear-icon"
              aria-label={t('filters.clear', { field: label })}
              onMouseDown={(e) => e.preventDefault()} // keeps the focus in the field
              onClick={() => setDraft('')}
            >
              <CloseCircleFilled aria-hidden />
            </button>
          ) : (
            <span /> // keeps the suffix slot, so the field does not re-mount while typing
          )
        }
        maxLength={200}
        data-testid={testId}
      />
    </Field>
  );
}
