import { ArrowLeftOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import { PageHeader, useDocumentTitle } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DOMAIN_FORM_FIELDS, DomainFields, type DomainValues } from '../domains/DomainFields';
import { useCreateDomain } from '../domains/domains.queries';
import { FormError, useFormRefusal } from '../forms/FormError';

/** Spec §2 `domains/new`: name (IDN allowed) and description. */
export default function NewDomainPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const [form] = Form.useForm<DomainValues>();
  const create = useCreateDomain();
  const refusal = useFormRefusal(form, DOMAIN_FORM_FIELDS);
  useDocumentTitle(t('new_domain.title'));

  const submit = async (values: DomainValues) => {
    refusal.clear();
    try {
      const domain = await create.mutateAsync({
        name: values.name.trim(),
        ...(values.description?.trim() ? { description: values.description.trim() } : {}),
      });
      notify({ type: 'success', title: t('new_domain.created'), description: domain.display_name });
      navigate(`../${encodeURIComponent(domain.id)}`);
    } catch (error) {
      refusal.refuse(error);
    }
  };

  return (
    <section aria-labelledby="new-domain-title" data-testid="new-domain-page" style={{ maxWidth: 720 }}>
      <PageHeader
        title={<span id="new-domain-title">{t('new_domain.title')}</span>}
        description={t('new_domain.description')}
        extra={
          <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={() => navigate('..')}>
            {t('domain.back')}
          </Button>
        }
      />
      <FormError message={refusal.message} />
      <Form<DomainValues>
        form={form}
        name="new-domain"
        layout="vertical"
        initialValues={{ name: '', description: '' }}
        onFinish={(v) => void submit(v)}
        scrollToFirstError={{ focus: true }}
      >
        <DomainFields testPrefix="new-domain" />
        <Flex gap={8} wrap>
          <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="new-domain-submit">
            {t('new_domain.submit')}
          </Button>
          <Button onClick={() => navigate('..')}>{t('new_domain.cancel')}</Button>
        </Flex>
      </Form>
    </section>
  );
}
