import { chosenTierUpFlags, tierUpFlags } from '../../../packages/cli/src/serve-tier-up';

/**
 * `mcpfusion serve` lowers V8's optimization thresholds once it serves (serve-tier-up.ts): the flags by V8's major
 * version, since their names changed and V8 reports a flag it does not know; none when turned off, and none of a flag
 * the user already gave Node.
 */
describe('serve: the V8 flags it sets', () => {
  it('are chosen by V8 major version, and none for a version not known', () => {
    expect(tierUpFlags('11.3.244.8-node.38')).toEqual(['--interrupt-budget=16000']);
    expect(tierUpFlags('12.4.254.21-node.57')).toEqual(['--invocation-count-for-turbofan=500', '--invocation-count-for-maglev=100']);
    expect(tierUpFlags('13.6.233.17-node.53')).toEqual(['--invocation-count-for-turbofan=500', '--invocation-count-for-maglev=100']);
    expect(tierUpFlags('10.2.154.26-node.26')).toEqual([]);
    expect(tierUpFlags('14.0.1')).toEqual([]);
    expect(tierUpFlags('')).toEqual([]);
  });

  it('are none with MCPFUSION_TIER_UP=0', () => {
    expect(chosenTierUpFlags('12.4.254.21', { MCPFUSION_TIER_UP: '0' }, [])).toEqual([]);
    expect(chosenTierUpFlags('12.4.254.21', { MCPFUSION_TIER_UP: '1' }, [])).toHaveLength(2);
  });

  it('leave out a flag the user gave Node on its command line, in either spelling', () => {
    expect(chosenTierUpFlags('11.3.244.8', {}, ['--interrupt-budget=1000'])).toEqual([]);
    expect(chosenTierUpFlags('12.4.254.21', {}, ['--max-old-space-size=512', '--invocation_count_for_turbofan=900'])).toEqual([
      '--invocation-count-for-maglev=100'
    ]);
    expect(chosenTierUpFlags('12.4.254.21', {}, ['--invocation-count-for-maglev', '--inspect'])).toEqual([
      '--invocation-count-for-turbofan=500'
    ]);
  });
});
