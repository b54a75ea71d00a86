import { ConfigurationError } from '../../../src';
import { duration, durationProblem, intAtLeast, intProblem, outputProblem, positiveInt } from '../../../src/config/option-checks';

const NOT_NUMBERS = ['5', null, true, {}, [1]];

describe('option checks', () => {
  describe('whole numbers', () => {
    it('take a whole number of at least the minimum, and the fallback when absent', () => {
      expect(positiveInt(3, 9, 'n')).toBe(3);
      expect(positiveInt(undefined, 9, 'n')).toBe(9);
      expect(intAtLeast(0, 0, 9, 'n')).toBe(0);
      expect(intAtLeast(undefined, 0, 9, 'n')).toBe(9);
      expect(intProblem(undefined, 1, 'n')).toBeUndefined();
      expect(intProblem(Number.MAX_SAFE_INTEGER, 1, 'n')).toBeUndefined();
    });

    it('refuse anything else with a ConfigurationError naming the option and the value', () => {
      for (const bad of [0, -1, 1.5, NaN, Infinity, 2 ** 53, ...NOT_NUMBERS]) {
        expect(() => positiveInt(bad, 9, 'tasks.ttlMs')).toThrow(ConfigurationError);
        expect(() => positiveInt(bad, 9, 'tasks.ttlMs')).toThrow(`tasks.ttlMs must be a positive whole number (got ${String(bad)}).`);
      }
      expect(() => intAtLeast(-1, 0, 9, 'maxQueue')).toThrow(
        new ConfigurationError('maxQueue must be a whole number of at least 0 (got -1).')
      );
      expect(intProblem(1, 2, 'n')).toBe('n must be a whole number of at least 2 (got 1).');
      expect(intProblem(0, 1, 'n')).toBe('n must be a positive whole number (got 0).');
    });
  });

  describe('durations', () => {
    it('take a positive finite number of milliseconds, and the fallback when absent', () => {
      expect(duration(0.5, 9, 'd')).toBe(0.5);
      expect(duration(undefined, 9, 'd')).toBe(9);
      expect(durationProblem(undefined, 'd')).toBeUndefined();
      expect(durationProblem(1e12, 'd', { whole: true })).toBeUndefined();
    });

    it('refuse anything else, naming the option and the value', () => {
      for (const bad of [0, -1, NaN, Infinity, ...NOT_NUMBERS]) {
        expect(durationProblem(bad, 'Odd.slow: timeoutMs')).toBe(
          `Odd.slow: timeoutMs must be a positive number of milliseconds (got ${String(bad)}).`
        );
        expect(() => duration(bad, 9, 'pollMs')).toThrow(ConfigurationError);
      }
    });

    it('refuse a fraction where only whole milliseconds are taken', () => {
      expect(durationProblem(1.5, 'A.b: task.ttlMs', { whole: true })).toBe(
        'A.b: task.ttlMs must be a positive whole number of milliseconds (got 1.5).'
      );
      expect(() => duration(1.5, 9, 'leaseMs', { whole: true })).toThrow(
        'leaseMs must be a positive whole number of milliseconds (got 1.5).'
      );
      expect(duration(1.5, 9, 'pollMs')).toBe(1.5);
    });
  });

  describe('output', () => {
    class Shape {}

    it('takes a class or [Class], or nothing', () => {
      expect(outputProblem(undefined)).toBeUndefined();
      expect(outputProblem(Shape)).toBeUndefined();
      expect(outputProblem([Shape])).toBeUndefined();
    });

    it('refuses anything else, named as the caller says', () => {
      expect(outputProblem('Shape')).toBe('output must be a class or [Class] (got Shape).');
      expect(outputProblem([Shape, Shape], 'Bad.x: output')).toMatch(/^Bad\.x: output must be a class or \[Class\] \(got /);
      expect(outputProblem([], 'Bad.x: output')).toBe('Bad.x: output must be a class or [Class] (got ).');
      expect(outputProblem({}, 'Bad.x: output')).toBe('Bad.x: output must be a class or [Class] (got [object Object]).');
    });
  });
});
