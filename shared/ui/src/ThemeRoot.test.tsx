import Button from 'antd/es/button';
import { render, screen } from '@testing-library/react';
import { ThemeRoot } from './ThemeRoot';

describe('theme root', () => {
  it('a busy button is named by its own text only (antd names its spinner "loading" in English)', () => {
    render(
      <ThemeRoot>
        <Button loading>Libérer</Button>
      </ThemeRoot>,
    );
    expect(screen.getByRole('button')).toHaveAccessibleName('Libérer');
    expect(document.querySelector('.anticon-loading')).not.toBeNull();
  });
});
