import type { RadioGroupProps } from 'antd/es/radio';
import { usePhoneLayout } from './usePhoneLayout';

/**
 * How a short set of choices (theme, frequency, pattern type…) is drawn: joined solid buttons on a
 * wide screen; on a phone plain radios that wrap, since a row of buttons broke into a second row
 * with a missing border.
 */
export function useChoiceGroup(): Pick<RadioGroupProps, 'optionType' | 'buttonStyle' | 'style'> {
  const phone = usePhoneLayout();
  return phone
    ? { optionType: 'default', style: { display: 'flex', flexWrap: 'wrap', gap: '8px 16px' } }
    : { optionType: 'button', buttonStyle: 'solid' };
}
