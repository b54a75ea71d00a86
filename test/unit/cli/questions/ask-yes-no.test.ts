import { isYesNo } from '../../../../packages/cli/src/questions/ask-yes-no';

describe('which questions are asked in one step (a single yes/no)', () => {
  it.each([
    [{ type: 'boolean' }, true],
    [{ type: 'boolean', title: 'Approve the refund', default: true }, true],
    [{ type: ['boolean'] }, true],
    [{ type: ['boolean', 'null'] }, false],
    [{ type: 'boolean', enum: [true] }, false],
    [{ type: 'string' }, false],
    [{ type: 'string', enum: ['a', 'b'] }, false],
    [undefined, false]
  ])('%j: %s', (schema, expected) => {
    expect(isYesNo(schema)).toBe(expected);
  });
});
