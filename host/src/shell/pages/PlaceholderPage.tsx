import { ComingSoon, PageHeader } from '@qc/ui';

/** A page whose content comes in a later issue: its route, guard and nav entry already exist. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <ComingSoon />
    </>
  );
}
