import { controlCharRuns } from '@qc/contracts';
import { useThemeToken } from '@qc/ui';
import { Fragment, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * How a log line's text is shown (issue 29 item 4): kept as received, but each control character
 * escaped (`\r`, `\n`, `\x1b`…) in a subtle code box, so a message carrying `\r\n… [NOTICE] admin
 * login ok` stays one line and cannot pass for a second one. A hook returning a plain function: one
 * theme and translation lookup per table, not per cell.
 */
export function useControlChars(): (text: string) => ReactNode {
  const { t } = useTranslation('haraka');
  const token = useThemeToken();
  const title = t('logs.control_char');
  const style: CSSProperties = {
    fontFamily: token.fontFamilyCode,
    background: token.colorFillSecondary,
    border: `1px solid ${token.colorBorderSecondary}`,
    borderRadius: token.borderRadiusXS,
    padding: '0 2px',
    marginInline: 1,
  };
  return (text) => {
    const runs = controlCharRuns(text);
    if (runs.every((r) => !r.control)) return text;
    return runs.map((r, i) =>
      r.control ? (
        <span key={i} style={style} title={title} data-testid="log-control-char">
          {r.text}
        </span>
      ) : (
        <Fragment key={i}>{r.text}</Fragment>
      ),
    );
  };
}
