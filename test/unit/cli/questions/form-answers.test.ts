import {
  applyPresets,
  fieldHint,
  multiSelectChoices,
  readPresetAnswers,
  validateChoices,
  validateFieldText
} from '../../../../packages/cli/src/questions/form-answers';

/** billing.refund's question, and billing.adjust's (a titled enum, then a bounded number). */
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean', title: 'Approve the refund' } }, required: ['confirm'] };
const ADJUST = {
  type: 'object',
  properties: {
    reason: {
      type: 'string',
      oneOf: [
        { const: 'discount', title: 'Discount' },
        { const: 'billing_error', title: 'Billing error' }
      ]
    },
    amount: { type: 'number', minimum: 0.01, maximum: 250 },
    note: { type: 'string', maxLength: 10 }
  },
  required: ['reason', 'amount']
};

describe('--answer presets', () => {
  it('reads name=value pairs and the whole-question replies decline and cancel', () => {
    const presets = readPresetAnswers(['confirm=yes', 'decline']);
    expect([...presets.fields]).toEqual([['confirm', 'yes']]);
    expect(presets.reply).toBe('decline');
    expect(() => readPresetAnswers(['confirm'])).toThrow('--answer confirm: write it as name=value');
  });

  it('answers the fields they name, read against the field schema; the rest stays open, required first', () => {
    expect(applyPresets(CONFIRM, readPresetAnswers(['confirm=y']))).toEqual({ content: { confirm: true }, open: [], openRequired: [] });
    expect(applyPresets(ADJUST, readPresetAnswers(['reason=Discount']))).toEqual({
      content: { reason: 'discount' },
      open: ['amount', 'note'],
      openRequired: ['amount']
    });
  });

  it('refuses a preset that does not fit its field, naming it', () => {
    expect(() => applyPresets(CONFIRM, readPresetAnswers(['confirm=perhaps']))).toThrow('--answer confirm: "perhaps" is not a boolean');
    expect(() => applyPresets(ADJUST, readPresetAnswers(['amount=300']))).toThrow('--answer amount: 300 is more than the maximum 250');
  });
});

describe('the prompt validation of a typed field', () => {
  const amount = ADJUST.properties.amount;
  it('accepts what fits and says what is wrong otherwise', () => {
    expect(validateFieldText('amount', amount, '12.5', true)).toBe(true);
    expect(validateFieldText('amount', amount, 'twelve', true)).toBe('amount: "twelve" is not a number');
    expect(validateFieldText('amount', amount, '0', true)).toBe('amount: 0 is less than the minimum 0.01');
    expect(validateFieldText('amount', amount, '', true)).toBe('amount is required');
  });

  it('lets an optional field be left empty, and checks string bounds and formats', () => {
    expect(validateFieldText('note', ADJUST.properties.note, '', false)).toBe(true);
    expect(validateFieldText('note', ADJUST.properties.note, 'much too long', false)).toBe('note: takes at most 10 characters');
    expect(validateFieldText('mail', { type: 'string', format: 'email' }, 'x', true)).toBe('mail: "x" is not an email address');
  });

  it('checks a multi-select against its item bounds', () => {
    const tags = { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 };
    expect(multiSelectChoices(tags)).toEqual([
      { value: 'a', title: 'a' },
      { value: 'b', title: 'b' },
      { value: 'c', title: 'c' }
    ]);
    expect(validateChoices('tags', tags, ['a'])).toBe(true);
    expect(validateChoices('tags', tags, [])).toBe('tags: needs at least 1 item(s)');
    expect(validateChoices('tags', tags, ['a', 'b', 'c'])).toBe('tags: takes at most 2 item(s)');
  });

  it('hints at what a field takes', () => {
    expect(fieldHint(amount)).toBe('(number, 0.01–250)');
    expect(fieldHint({ type: 'integer', minimum: 1 })).toBe('(integer, ≥ 1)');
    expect(fieldHint({ type: 'string', format: 'email', maxLength: 40 })).toBe('(email, at most 40 characters)');
    expect(fieldHint({ type: 'string' })).toBe('');
  });
});
