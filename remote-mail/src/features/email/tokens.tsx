import { Fragment, type CSSProperties, type ReactNode } from 'react';

/**
 * Where a long address, Message-ID or uuid may wrap: after '@', '.', '-', '_', '+', '=', '/' and
 * '>', and before '<'. Nowhere else: "bounces@mailer.example.com" wraps at its dots, never as
 * "bounc|es". A single part wider than the column is cut with an ellipsis (the title and a copy
 * give the whole value) rather than broken.
 */
const AFTER = new Set(['@', '.', '-', '_', '+', '=', '/', '>']);

/** The parts of a token between its break opportunities (each keeps its separator). */
export function tokenParts(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (const c of text) {
    if (c === '<' && current) {
      parts.push(current);
      current = c;
    } else {
      current += c;
      if (AFTER.has(c)) {
        parts.push(current);
        current = '';
      }
    }
  }
  if (current) parts.push(current);
  return parts;
}

/** Inherited by the token's text: no break inside a part (the grid's own break-word is undone here). */
export const TOKEN_STYLE: CSSProperties = {
  display: 'inline-block',
  maxWidth: '100%',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  verticalAlign: 'bottom',
  whiteSpace: 'normal',
  wordBreak: 'normal',
  overflowWrap: 'normal',
};

/** A token shown whole: break opportunities (`<wbr>`) only at its separators, its full text as the title. */
export function Token({ text, testId }: { text: string; testId?: string }): ReactNode {
  const parts = tokenParts(text);
  return (
    <span style={TOKEN_STYLE} title={text} data-token="" data-testid={testId}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
