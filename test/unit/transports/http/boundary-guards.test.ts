import { ValidateIf, IsOptional, IsString } from 'class-validator';
import { JSONSchema, SignedContinuationStore, ask, requireInput } from '../../../../src';
import { resume, seal, firstEntry } from '../../../../src/interactive/continuation';
import { UsedStates } from '../../../../src/interactive/used-states';
import { SchemaCatalog } from '../../../../src/schema/json-schema';
import { ownRecord, ownValue } from '../../../../src/wire/own-properties';
import { acceptRefusal, batchRefusal, stripPrototypeKeys } from '../../../../src/transports/http/protocol-refusals';

const KEY = 'u'.repeat(32);
const binding = { name: 'refund', args: { id: 1 }, principal: null };
const confirm = requireInput.elicit('Refund?', { confirm: ask.boolean('Approve') });

describe('own properties only', () => {
  it('ownValue and ownRecord never read through a prototype, nor the prototype keys', () => {
    const inherited = Object.create({ confirm: true }) as Record<string, unknown>;
    expect(ownValue(inherited, 'confirm')).toBeUndefined();
    const parsed = JSON.parse('{"__proto__":{"x":1},"constructor":2,"ok":3}') as Record<string, unknown>;
    expect(ownValue(parsed, '__proto__')).toBeUndefined();
    expect(ownValue(parsed, 'constructor')).toBeUndefined();
    const copy = ownRecord(parsed);
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(Object.keys(copy)).toEqual(['ok']);
  });

  it('resume ignores an answer that reaches it only through the map prototype (the SDK copy of inputResponses)', async () => {
    const store = new SignedContinuationStore(KEY, 60);
    const token = await seal(store, binding, firstEntry(), confirm);
    // What `accepted['__proto__'] = entry` makes of a map: the answer sits on the prototype.
    const copied = Object.create({ input: { action: 'accept', content: { confirm: true } } }) as Record<string, unknown>;
    const resumed = await resume(store, binding, token, copied);
    expect(resumed.kind).toBe('reask');
  });

  it('request keys and field names that reach prototypes are refused when asked', () => {
    expect(() => requireInput.elicit('?', { ok: ask.boolean('x') }, { key: '__proto__' })).toThrow(/cannot be the key/);
    expect(() => requireInput.elicit('?', JSON.parse('{"constructor":1}') as never)).toThrow();
  });

  it('the HTTP entry drops prototype keys from inputResponses before the SDK sees them', () => {
    const body = JSON.parse('{"params":{"inputResponses":{"__proto__":{"a":1},"prototype":1,"input":2}}}') as {
      params: { inputResponses: Record<string, unknown> };
    };
    stripPrototypeKeys(body);
    expect(Object.keys(body.params.inputResponses)).toEqual(['input']);
  });
});

describe('single-use states', () => {
  it('UsedStates refuses a second use and forgets ids once they have expired', () => {
    let now = 1000;
    const used = new UsedStates(100, () => now);
    expect(used.consume('a')).toBe(true);
    expect(used.consume('a')).toBe(false);
    now = 1101;
    expect(used.consume('b')).toBe(true);
    expect(used.size).toBe(1); // 'a' expired and was pruned
  });

  it('a sealed single-use state opens once', async () => {
    const store = new SignedContinuationStore(KEY, 60);
    const once = { ...binding, singleUse: true };
    const token = await seal(store, once, firstEntry(), confirm);
    await expect(resume(store, once, token, {})).resolves.toMatchObject({ kind: 'reask' });
    await expect(resume(store, once, token, {})).rejects.toThrow(/already used/);
    // A state sealed without it is not accepted by a member that requires it.
    const plain = await seal(store, binding, firstEntry(), confirm);
    await expect(resume(store, once, plain, {})).rejects.toThrow(/not a single-use state/);
  });
});

describe('the listed schema is what is enforced', () => {
  class Filter {
    @IsOptional() @IsString() status?: string;
  }
  class NullableNote {
    @JSONSchema({ type: ['string', 'null'] } as never)
    @IsOptional()
    @ValidateIf((_o, v) => v !== null)
    @IsString()
    note?: string | null;
  }
  const catalog = new SchemaCatalog();

  it('null for an @IsOptional() property is refused with one clear line', () => {
    const outcome = catalog.validatorOf(Filter, 'Filter')({ status: null });
    expect(outcome.violations).toEqual([{ path: 'status', message: 'status must not be null (leave it out instead)' }]);
    expect(catalog.validatorOf(Filter, 'Filter')({}).violations).toBeUndefined();
  });

  it('a property whose listed schema allows null accepts it', () => {
    expect(catalog.validatorOf(NullableNote, 'NullableNote')({ note: null }).violations).toBeUndefined();
    expect(catalog.validatorOf(NullableNote, 'NullableNote')({ note: 3 }).violations).toBeDefined();
  });

  it('an object whose prototype was replaced is refused before conversion', () => {
    const smuggled = Object.create({ status: 'x' }) as Record<string, unknown>;
    expect(catalog.validatorOf(Filter, 'Filter')(smuggled).violations).toEqual([
      { path: '__proto__', message: 'property name __proto__ is not allowed' }
    ]);
  });
});

describe('protocol refusals', () => {
  const withAccept = (accept: string) => new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { accept } });

  it('Accept: wildcards and q=0 are honoured', () => {
    expect(acceptRefusal(withAccept('text/html'))?.status).toBe(406);
    expect(acceptRefusal(withAccept('application/json;q=0, text/html'))?.status).toBe(406);
    expect(acceptRefusal(withAccept('*/*;q=0'))?.status).toBe(406);
    expect(acceptRefusal(withAccept('*/*'))).toBeUndefined();
    expect(acceptRefusal(withAccept('text/*'))).toBeUndefined();
    expect(acceptRefusal(withAccept('application/json, text/event-stream'))).toBeUndefined();
    // Without parameters the ranges are compared as they are: a look-alike type does not pass.
    expect(acceptRefusal(withAccept('application/json-seq'))?.status).toBe(406);
    expect(acceptRefusal(withAccept('Application/JSON'))).toBeUndefined();
    expect(acceptRefusal(withAccept('text/event-streamx, application/jsonx'))?.status).toBe(406);
  });

  it('batches: refused from 2025-06-18 on, passed on before it and for single messages', () => {
    expect(batchRefusal([{}], '2025-06-18')?.status).toBe(400);
    expect(batchRefusal([{}], '2025-11-25')?.status).toBe(400);
    expect(batchRefusal([{}], '2025-03-26')).toBeUndefined();
    expect(batchRefusal({}, '2025-11-25')).toBeUndefined();
  });
});
