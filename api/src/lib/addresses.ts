// The one normalisation of addresses and domains (issue 21 item 5) lives in @qc/contracts, where the
// request schemas use it too; the api's own entry points (ingest, CLI, lookups) import it from here.
export {
  domainToALabel,
  LOCAL_PART_MAX_OCTETS,
  LOCAL_PART_TOO_LONG,
  localPartOctets,
  normaliseAddress,
  withALabelDomain,
} from '@qc/contracts';

/** The domain of an address: what follows its last '@' (quarantine_recipients.domain of a recipient). */
export function recipientDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}
