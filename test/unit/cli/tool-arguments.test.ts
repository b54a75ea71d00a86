import { CliError } from '../../../packages/cli/src/cli-error';
import { buildToolArguments, type InputSchema } from '../../../packages/cli/src/tool-arguments';

/** The input schemas of the sample's billing.list and reports.rebuild, as tools/list gives them. */
const LIST: InputSchema = {
  type: 'object',
  properties: {
    status: { enum: ['open', 'paid', 'refunded'], type: 'string' },
    customer: { minimum: 1, type: 'integer' },
    limit: { maximum: 100, type: 'integer', minimum: 1 }
  },
  additionalProperties: false
};
const REFUND: InputSchema = {
  type: 'object',
  properties: { id: { minimum: 1, type: 'integer' } },
  required: ['id'],
  additionalProperties: false
};

describe('buildToolArguments (--arg and --json against the tool input schema)', () => {
  it('reads each --arg against its property', () => {
    expect(buildToolArguments('billing.list', LIST, ['status=paid', 'limit=5'])).toEqual({ status: 'paid', limit: 5 });
    expect(buildToolArguments('billing.refund', REFUND, ['id=3'])).toEqual({ id: 3 });
  });

  it('takes --json as the base object; --arg values are added and win', () => {
    expect(buildToolArguments('billing.list', LIST, ['limit=7'], '{"status":"open","limit":2}')).toEqual({ status: 'open', limit: 7 });
  });

  it('refuses a value that does not fit, naming the tool and the property, before anything is sent', () => {
    expect(() => buildToolArguments('billing.refund', REFUND, ['id=abc'])).toThrow(
      new CliError('billing.refund: argument id: "abc" is not a number')
    );
    expect(() => buildToolArguments('billing.refund', REFUND, ['id=0'])).toThrow(
      'billing.refund: argument id: 0 is less than the minimum 1'
    );
    expect(() => buildToolArguments('billing.list', LIST, ['status=lost'])).toThrow(
      'billing.list: argument status: "lost" is not one of open, paid, refunded'
    );
    expect(() => buildToolArguments('billing.refund', REFUND, [], '{"id":"3"}')).toThrow(
      'billing.refund: argument id: "3" is not an integer'
    );
  });

  it('refuses a property the closed schema does not have, listing those it has', () => {
    expect(() => buildToolArguments('billing.refund', REFUND, ['invoice=3'])).toThrow(
      'billing.refund: no argument named invoice; it takes id'
    );
    expect(() => buildToolArguments('billing.refund', REFUND, [], '{"id":3,"force":true}')).toThrow('no argument named force');
  });

  it('passes an unknown property through when the schema is open (read as JSON when it reads as JSON)', () => {
    expect(buildToolArguments('t', { type: 'object', properties: {} }, ['n=2', 's=x'])).toEqual({ n: 2, s: 'x' });
  });

  it('names the required arguments that are missing, with the flag that gives them', () => {
    expect(() => buildToolArguments('billing.refund', REFUND, [])).toThrow(
      'billing.refund: missing required argument id (pass --arg id=…)'
    );
  });

  it('refuses a malformed --arg or --json', () => {
    expect(() => buildToolArguments('billing.refund', REFUND, ['id'])).toThrow('--arg id: write it as name=value');
    expect(() => buildToolArguments('billing.refund', REFUND, [], '{id: 3}')).toThrow('billing.refund: --json is not valid JSON');
    expect(() => buildToolArguments('billing.refund', REFUND, [], '[3]')).toThrow('billing.refund: --json must be a JSON object');
  });
});
