import Grid from 'antd/es/grid';

/**
 * True below antd's `sm` breakpoint (576 px, a phone held upright). There, a wide table shows each
 * row as one stacked cell rather than scrolling sideways.
 */
export function usePhoneLayout(): boolean {
  return Grid.useBreakpoint().xs === true;
}
