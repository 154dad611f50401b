import { SearchOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Input from 'antd/es/input';
import Typography from 'antd/es/typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { HARAKA_UUID } from './logs.types';

/** A uuid typed or pasted (e.g. from a bounce): opens its page, or says it is not a Haraka uuid. */
export function UuidBox() {
  const { t } = useTranslation('haraka');
  const navigate = useNavigate();
  const id = useId();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const submit = () => {
    const uuid = value.trim();
    if (!HARAKA_UUID.test(uuid)) return setInvalid(true);
    setInvalid(false);
    navigate(`/haraka/logs/${encodeURIComponent(uuid)}`);
  };
  return (
    // Not a <form>: Enter in the field and the button both open it (no page submit to prevent).
    <div
      role="search"
      aria-labelledby={`${id}-label`}
      data-testid="uuid-box"
      style={{ marginBottom: 16, maxWidth: 560 }}
    >
      <label htmlFor={id} id={`${id}-label`} style={{ display: 'block', marginBottom: 4 }}>
        {t('logs.uuid_box.label')}
      </label>
      <Flex gap={8}>
        <Input
          id={id}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            if (invalid) setInvalid(false);
          }}
          placeholder={t('logs.uuid_box.placeholder')}
          status={invalid ? 'error' : ''}
          aria-invalid={invalid}
          aria-describedby={invalid ? `${id}-error` : undefined}
          onPressEnter={submit}
          autoComplete="off"
          spellCheck={false}
          data-testid="uuid-input"
        />
        <Button onClick={submit} icon={<SearchOutlined aria-hidden />} data-testid="uuid-open">
          {t('logs.uuid_box.open')}
        </Button>
      </Flex>
      {invalid ? (
        <Typography.Text type="danger" id={`${id}-error`} role="alert" data-testid="uuid-error">
          {t('logs.uuid_box.invalid')}
        </Typography.Text>
      ) : null}
    </div>
  );
}
