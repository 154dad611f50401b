import Radio from 'antd/es/radio';
import { render, screen } from '@testing-library/react';
import { useChoiceGroup } from './choice-group';
import { onPhoneScreen } from './testing';

function Theme() {
  const choiceGroup = useChoiceGroup();
  return (
    <Radio.Group
      {...choiceGroup}
      aria-label="Thème"
      defaultValue="light"
      options={[
        { value: 'light', label: 'Clair' },
        { value: 'dark', label: 'Sombre' },
        { value: 'system', label: 'Système' },
      ]}
    />
  );
}

describe('useChoiceGroup', () => {
  it('joined solid buttons on a wide screen', () => {
    const { container } = render(<Theme />);
    expect(container.querySelectorAll('.ant-radio-button-wrapper')).toHaveLength(3);
    expect(container.querySelector('.ant-radio-group-solid')).not.toBeNull();
    expect(screen.getByRole('radio', { name: 'Clair' })).toBeChecked();
  });

  it('plain radios that wrap on a phone', () => {
    const restore = onPhoneScreen();
    try {
      const { container } = render(<Theme />);
      expect(container.querySelectorAll('.ant-radio-button-wrapper')).toHaveLength(0);
      expect(container.querySelectorAll('.ant-radio-wrapper')).toHaveLength(3);
      expect(screen.getByRole('radiogroup', { name: 'Thème' })).toHaveStyle({ flexWrap: 'wrap' });
      expect(screen.getByRole('radio', { name: 'Clair' })).toBeChecked();
    } finally {
      restore();
    }
  });
});
