import { render, screen } from '@testing-library/react';
import { Field } from './Field';
import { onPhoneScreen } from './testing';

const field = () =>
  render(
    <Field id="f" label="Catégorie" width={190}>
      <input id="f" />
    </Field>,
  );

describe('Field', () => {
  it('names its control, at its width on a wide screen', () => {
    field();
    const input = screen.getByLabelText('Catégorie');
    expect(input.parentElement).toHaveStyle({ width: '190px' });
  });

  it('takes the whole width on a phone', () => {
    const restore = onPhoneScreen();
    try {
      field();
      expect(screen.getByLabelText('Catégorie').parentElement).toHaveStyle({ width: '100%' });
    } finally {
      restore();
    }
  });
});
