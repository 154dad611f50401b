import { HTTPError } from 'ky';
import { addressesChanged, mentions, refusalOf, removedAddresses, rowProblems, rowsOf } from './addresses';

/** A refusal as ky gives it (readApiError reads `data`). */
function refusal(status: number, body: unknown): HTTPError {
  const request = new Request('http://localhost/api/users/u2/', { method: 'PATCH' });
  const error = new HTTPError(new Response(JSON.stringify(body), { status }), request, {} as never);
  Object.assign(error, { data: body });
  return error;
}

const rows = (...values: string[]) => values.map((value, key) => ({ key: key + 10, value }));

describe('the addresses editor’s logic (issue 31)', () => {
  it('rows: the primary (e-mail) first; an empty list is the e-mail alone', () => {
    expect(rowsOf({ email: 'b@x.example', addresses: ['a@x.example', 'b@x.example'] }).map((r) => r.value)).toEqual([
      'b@x.example',
      'a@x.example',
    ]);
    expect(rowsOf({ email: 'b@x.example', addresses: [] })).toEqual([{ key: 0, value: 'b@x.example' }]);
  });

  it('changed / removed compare the stored form (case, IDN)', () => {
    expect(addressesChanged(['Ann@Bücher.Example'], ['ann@xn--bcher-kva.example'])).toBe(false);
    expect(addressesChanged(['a@x.example', 'b@x.example'], ['b@x.example', 'a@x.example'])).toBe(true);
    expect(removedAddresses(['A@x.example'], ['a@x.example', 'b@x.example'])).toEqual(['b@x.example']);
  });

  it('checks each row: required, valid, once', () => {
    expect([...rowProblems(rows('a@x.example', ' ', 'nope', 'A@X.example '))]).toEqual([
      [11, 'required'],
      [12, 'invalid'],
      [13, 'duplicate'],
    ]);
  });

  it.each([
    ['The address a@x.example belongs to another user.', 'a@x.example', true],
    ['a@x.example is taken', 'A@X.Example', true],
    ['ba@x.example is taken', 'a@x.example', false],
    ['a@x.example.org is taken', 'a@x.example', false],
    ['(a@x.example)', 'a@x.example', true],
    ['ann@xn--bcher-kva.example is outside', 'ann@bücher.example', true],
  ])('"%s" names %s: %s', (text, address, named) => {
    expect(mentions(text, address)).toBe(named);
  });

  it('the API’s refusals on the rows they name', () => {
    const sent = rows('a@x.example', 'b@x.example', 'c@y.example');
    const taken = refusalOf(
      refusal(409, { code: 'address_taken', detail: 'The address b@x.example belongs to another user.' }),
      sent,
    );
    expect([...taken.rows]).toEqual([[11, 'taken']]);
    expect(taken.unplaced).toBe(false);
    const byPosition = refusalOf(
      refusal(400, { code: 'validation_error', detail: 'x', errors: { 'addresses.2': 'Invalid email address' } }),
      sent,
    );
    expect([...byPosition.rows]).toEqual([[12, 'refused']]);
    const byName = refusalOf(
      refusal(400, {
        code: 'validation_error',
        detail: 'x',
        errors: { addresses: 'c@y.example: not a console domain' },
      }),
      sent,
    );
    expect([...byName.rows]).toEqual([[12, 'refused']]);
    const unnamed = refusalOf(refusal(409, { code: 'address_taken', detail: 'An address is taken.' }), sent);
    expect(unnamed).toEqual({ rows: new Map(), unplaced: true });
    expect(refusalOf(refusal(500, { code: 'internal_error', detail: 'boom' }), sent).unplaced).toBe(true);
  });
});
