/** The domain of an address: what follows its last '@' (quarantine_recipients.domain of a recipient). */
export function recipientDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}
